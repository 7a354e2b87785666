package com.example.settings;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;

/** Excluded by Surefire's excludes: whoever runs it did not honour them. */
class ExcludedTest {
    @Test
    void mustNotRun() {
        fail("ExcludedTest is excluded by <excludes>");
    }
}
