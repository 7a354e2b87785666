package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WordsTest {
    @Test
    void oneIsSingular() {
        assertEquals("1 test", Words.count(1, "test"));
        assertEquals("0 tests", Words.count(0, "test"));
        assertEquals("2 classes", Words.count(2, "class"));
        assertEquals("1 class", Words.count(1, "class"));
    }
}
