package com.example.direct;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class Alpha2PolluterTest {
    @Test
    public void switchesToFast() {
        Settings.mode = "fast";
        assertTrue(Settings.fast());
    }
}
