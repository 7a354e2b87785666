package com.example.dep;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DeltaTest {
    @Test
    public void readsAConstant() {
        Counters.calls++;
        assertEquals(10, Limits.MAX.intValue());
    }

    @Test
    public void readsAnotherConstant() {
        Counters.calls++;
        assertEquals("limits", Limits.NAME);
    }
}
