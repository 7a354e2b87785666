package com.example.direct;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class Alpha1VictimTest {
    @Test
    public void runsInDefaultMode() {
        assertFalse(Settings.fast());
    }
}
