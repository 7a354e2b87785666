package com.example.structures;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Plain tests: they pass in every order and make the orders vary. */
public class BravoTest {
    @Test
    public void one() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void two() {
        assertEquals("ab", "a" + "b");
    }

    @Test
    public void three() {
        assertEquals(9, 3 * 3);
    }
}
