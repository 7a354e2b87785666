package com.example.structures;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** (c) The brittle: passes only after ConfigInitTest (so it always fails alone). */
public class ConfigUseTest {
    @Test
    public void needsLoadedConfig() {
        assertTrue("Config was not loaded by ConfigInitTest", Config.loaded);
    }
}
