package com.example.j5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Plain tests: they pass in every order. */
class GammaTest {
    @Test
    void one() {
        assertEquals(2, 1 + 1);
    }

    @Test
    void two() {
        assertEquals("ab", "a" + "b");
    }

    @Test
    void three() {
        assertEquals(9, 3 * 3);
    }
}
