package com.example.fix;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SetsPropertyTest {
    @Test
    public void setsFlag() {
        System.setProperty("fix.flag", "on");
        assertEquals("on", System.getProperty("fix.flag"));
    }
}
