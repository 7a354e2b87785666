package com.example.bad;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class GoodTest {
    @Test
    public void one() {
        assertTrue(true);
    }

    @Test
    public void two() {
        assertTrue(true);
    }
}
