package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class AlphaVictimTest {
    @Test
    public void checksOne() {
        assertFalse("set by OmegaPolluterTest", Flags.one);
    }
}
