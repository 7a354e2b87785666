package com.example.audit;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class AddsNameTest {
    @Test
    public void adds() {
        Registry.add("x");
        assertTrue(Registry.NAMES.contains("x"));
    }
}
