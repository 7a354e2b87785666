package com.example.pv;

import static org.junit.Assert.assertNull;

import org.junit.Test;

public class VictimTest {
    @Test
    public void victim() {
        assertNull("Registry.current was left set by another test", Registry.current);
    }
}
