package com.example.fix;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReadsStateTest {
    @Test
    void stateIsThere() {
        assertNotNull(Settings.mode);
        Cache.get("user");
        assertTrue(Counter.count >= 0);
    }
}
