package com.example.b;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The brittle: needs InitTest first. */
class UseTest {
    @Test
    void needsReady() {
        assertTrue(Registry.ready, "Registry was not initialised by InitTest");
    }

    @Test
    void plain() {
        assertEquals(4, 2 * 2);
    }
}
