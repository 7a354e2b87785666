package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class DeltaTest {
    @Test
    public void plain() {
        assertFalse(false);
    }
}
