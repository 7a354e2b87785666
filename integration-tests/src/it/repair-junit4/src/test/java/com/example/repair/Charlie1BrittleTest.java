package com.example.repair;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Case C, the brittle: fails unless Charlie2SetterTest#turnsOn ran before it (so it fails in the original order). */
public class Charlie1BrittleTest {
    @Test
    public void needsConfig() {
        assertTrue("nobody set the config to on: " + Registry.config(), "on".equals(Registry.config()));
    }
}
