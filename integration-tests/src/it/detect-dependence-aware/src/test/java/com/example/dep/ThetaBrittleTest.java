package com.example.dep;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Fails unless AaSetterTest ran before it: a brittle. */
public class ThetaBrittleTest {
    @Test
    public void needsReady() {
        Counters.calls++;
        assertTrue("set by AaSetterTest", Flags.ready);
    }
}
