package com.example.b;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The state-setter: runs before UseTest in the original order. */
class InitTest {
    @Test
    void initialises() {
        Registry.ready = true;
        assertTrue(Registry.ready);
    }
}
