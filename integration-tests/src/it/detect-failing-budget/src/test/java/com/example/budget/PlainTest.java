package com.example.budget;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class PlainTest {
    @Test
    public void first() {
        assertTrue(true);
    }

    @Test
    public void second() {
        assertTrue(true);
    }
}
