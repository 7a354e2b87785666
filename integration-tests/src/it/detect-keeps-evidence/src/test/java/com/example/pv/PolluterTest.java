package com.example.pv;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class PolluterTest {
    @Test
    public void pollutes() {
        Registry.current = "polluted";
        assertEquals("polluted", Registry.current);
    }
}
