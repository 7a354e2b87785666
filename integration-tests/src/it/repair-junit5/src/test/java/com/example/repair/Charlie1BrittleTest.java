package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Case C, the brittle: fails unless Charlie2SetterTest#turnsOn ran before it (so it fails in the original order). */
class Charlie1BrittleTest {
    @Test
    void needsConfig() {
        assertTrue("on".equals(Registry.config()), "nobody set the config to on: " + Registry.config());
    }
}
