package com.example.explain;

import org.junit.Test;

/** The first state-setter of the brittle. */
public class DeltaSetterTest {
    @Test
    public void loadsConfig() {
        Shared.config = "loaded";
    }
}
