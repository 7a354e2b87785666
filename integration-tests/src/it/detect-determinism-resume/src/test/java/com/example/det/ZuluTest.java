package com.example.det;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Plain tests: they pass in every order. */
public class ZuluTest {
    @Test
    public void one() {
        Slow.pause();
        assertEquals(2, 1 + 1);
    }

    @Test
    public void two() {
        Slow.pause();
        assertEquals("ab", "a" + "b");
    }
}
