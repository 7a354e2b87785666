package com.example.a;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The polluter. */
public class FillTest {
    @Test
    public void fills() {
        Store.value = "x";
        assertEquals("x", Store.value);
    }

    @Test
    public void adds() {
        assertEquals(2, 1 + 1);
    }
}
