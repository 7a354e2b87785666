package com.example.fid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/** Jupiter: one of each outcome. */
class ModernTest {
    @Test
    void passes() {
        assertEquals(2, 1 + 1);
    }

    @Test
    void errors() {
        throw new IllegalStateException("a deliberate error");
    }

    @Test
    @Disabled("skipped on purpose")
    void disabled() {
    }
}
