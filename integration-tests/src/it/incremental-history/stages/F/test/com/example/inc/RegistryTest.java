package com.example.inc;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class RegistryTest {
    @Test
    public void registers() {
        Registry.ENTRIES.add("x");
        assertTrue(Registry.ENTRIES.contains("x"));
        Registry.ENTRIES.clear();
    }
}
