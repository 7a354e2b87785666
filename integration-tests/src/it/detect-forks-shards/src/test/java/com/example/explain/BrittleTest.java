package com.example.explain;

import static org.junit.Assert.assertNotNull;

import org.junit.Test;

/** The brittle: fails unless a state-setter ran before it. */
public class BrittleTest {
    @Test
    public void needsConfig() {
        assertNotNull("no one loaded Shared.config", Shared.config);
    }
}
