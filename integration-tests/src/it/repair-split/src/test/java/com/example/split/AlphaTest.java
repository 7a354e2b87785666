package com.example.split;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AlphaTest {
    @Test
    public void showsDefaultMode() {
        assertEquals("default", Mode.get());
    }
}
