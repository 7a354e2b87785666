package com.example.isooom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PlainTest {
    @Test
    void adds() {
        assertEquals(4, 2 + 2);
    }

    @Test
    void concatenates() {
        assertEquals("ab", "a" + "b");
    }

    @Test
    void multiplies() {
        assertEquals(6, 2 * 3);
    }
}
