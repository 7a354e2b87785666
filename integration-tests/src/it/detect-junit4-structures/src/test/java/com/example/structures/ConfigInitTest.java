package com.example.structures;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** (c) The state-setter: loads Config; it runs before ConfigUseTest in the original order. */
public class ConfigInitTest {
    @Test
    public void loads() {
        Config.loaded = true;
        assertTrue(Config.loaded);
    }
}
