package com.example.structures;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** (a) The polluter: sets Cache.entry and never resets it. */
public class CacheFillTest {
    @Test
    public void fills() {
        Cache.entry = "filled";
        assertEquals("filled", Cache.entry);
    }
}
