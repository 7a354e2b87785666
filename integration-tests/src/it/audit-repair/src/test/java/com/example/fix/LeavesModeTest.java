package com.example.fix;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LeavesModeTest {
    @Test
    public void setsMode() {
        Settings.mode = "fast";
        assertEquals("fast", Settings.mode);
    }
}
