package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.kit.Settings;
import org.junit.jupiter.api.Test;

class Bravo1BrittleTest {
    @Test
    void needsStrictMode() {
        assertEquals("strict", Settings.mode());
    }
}
