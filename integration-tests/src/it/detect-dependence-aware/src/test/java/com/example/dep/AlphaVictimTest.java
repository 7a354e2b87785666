package com.example.dep;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class AlphaVictimTest {
    @Test
    public void checksOne() {
        Counters.calls++;
        assertFalse("set by OmegaPolluterTest", Flags.one);
    }
}
