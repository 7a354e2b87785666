package com.example.iso;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AlphaTest {
    @Test
    public void one() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void two() {
        assertEquals("Alpha", "Alpha".trim());
    }
}
