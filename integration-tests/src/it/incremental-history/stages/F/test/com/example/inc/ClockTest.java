package com.example.inc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ClockTest {
    @Test
    public void utc() {
        assertEquals("UTC", Clock.zone());
        assertEquals(3, Clock.zone().length());
    }
}
