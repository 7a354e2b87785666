package com.example.det;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The polluter. */
public class FillTest {
    @Test
    public void fills() {
        Slow.pause();
        Store.value = "x";
        assertEquals("x", Store.value);
    }
}
