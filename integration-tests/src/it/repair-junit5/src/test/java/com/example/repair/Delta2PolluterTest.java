package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Case D, the polluter: changes Registry.mode, and nothing in the suite changes it back. */
class Delta2PolluterTest {
    @Test
    void switchesMode() {
        Registry.mode = "maintenance";
        assertEquals("maintenance", Registry.mode);
    }
}
