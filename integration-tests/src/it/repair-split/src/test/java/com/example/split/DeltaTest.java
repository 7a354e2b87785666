package com.example.split;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DeltaTest {
    @Test
    public void tidiesUp() {
        Mode.reset();
        assertEquals("default", Mode.get());
    }
}
