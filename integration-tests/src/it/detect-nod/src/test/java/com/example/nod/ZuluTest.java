package com.example.nod;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Plain tests: they pass in every order. */
public class ZuluTest {
    @Test
    public void one() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void two() {
        assertEquals("ab", "a" + "b");
    }
}
