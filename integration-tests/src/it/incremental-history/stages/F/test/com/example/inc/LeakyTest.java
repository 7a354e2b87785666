package com.example.inc;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** New at stage F: leaves an entry behind, so AuditTest fails after it. */
public class LeakyTest {
    @Test
    public void leaves() {
        Registry.ENTRIES.add("left");
        assertTrue(Registry.ENTRIES.contains("left"));
    }
}
