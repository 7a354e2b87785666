package com.example.iso;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CharlieTest {
    @Test
    public void one() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void two() {
        assertEquals("Charlie", "Charlie".trim());
    }
}
