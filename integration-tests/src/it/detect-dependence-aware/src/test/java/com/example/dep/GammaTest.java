package com.example.dep;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GammaTest {
    @Test
    public void adds() {
        Counters.calls++;
        assertEquals(4, 2 + 2);
    }

    @Test
    public void multiplies() {
        Counters.calls++;
        assertEquals(6, 2 * 3);
    }

    @Test
    public void concatenates() {
        Counters.calls++;
        assertEquals("ab", "a" + "b");
    }
}
