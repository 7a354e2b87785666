package com.example.two;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CleanupTest {
    @Test
    public void restoresEnglish() {
        Settings.setLocale("en");
        assertEquals("en", Settings.locale());
    }
}
