package com.example.boom;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DTest {
    @Test
    public void ok() {
        assertEquals(2, 1 + 1);
    }
}
