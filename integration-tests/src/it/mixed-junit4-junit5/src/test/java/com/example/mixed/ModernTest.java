package com.example.mixed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A Jupiter test. */
class ModernTest {
    @Test
    void m1() {
        assertEquals(2, 1 + 1);
    }

    @Test
    void m2() {
        assertEquals(3, 1 + 2);
    }
}
