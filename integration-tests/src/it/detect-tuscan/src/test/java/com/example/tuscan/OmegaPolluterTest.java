package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class OmegaPolluterTest {
    @Test
    public void setsOne() {
        Flags.one = true;
    }
}
