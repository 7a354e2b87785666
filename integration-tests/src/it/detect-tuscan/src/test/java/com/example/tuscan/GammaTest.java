package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class GammaTest {
    @Test
    public void plain() {
        assertFalse(false);
    }
}
