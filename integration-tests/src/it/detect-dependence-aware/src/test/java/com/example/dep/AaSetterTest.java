package com.example.dep;

import org.junit.Test;

/** Runs first in the original order and sets what ThetaBrittleTest needs. */
public class AaSetterTest {
    @Test
    public void getsReady() {
        Counters.calls++;
        Flags.ready = true;
    }
}
