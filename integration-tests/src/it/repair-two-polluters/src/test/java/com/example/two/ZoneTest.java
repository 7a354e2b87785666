package com.example.two;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ZoneTest {
    @Test
    public void switchesToCet() {
        Settings.setZone("CET");
        assertEquals("CET", Settings.zone());
    }
}
