package com.example.explain;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Tests that touch no shared state. */
public class PlainTest {
    @Test
    public void adds() {
        assertEquals(4, 2 + 2);
    }

    @Test
    public void concatenates() {
        assertEquals("ab", "a" + "b");
    }

    @Test
    public void compares() {
        assertEquals(-1, Integer.compare(1, 2));
    }
}
