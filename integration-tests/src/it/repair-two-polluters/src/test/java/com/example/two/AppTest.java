package com.example.two;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AppTest {
    @Test
    public void usesDefaults() {
        assertEquals("en", Settings.locale());
        assertEquals("UTC", Settings.zone());
    }

    @Test
    public void formatsDefaults() {
        assertEquals("en/UTC", Settings.locale() + "/" + Settings.zone());
    }
}
