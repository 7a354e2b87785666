package com.example.two;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LocaleTest {
    @Test
    public void switchesToFrench() {
        Settings.setLocale("fr");
        assertEquals("fr", Settings.locale());
    }
}
