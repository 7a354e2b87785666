package com.example.hist;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class CCleanerTest {
    @Test
    public void clears() {
        Registry.NAMES.clear();
        assertTrue(Registry.NAMES.isEmpty());
    }
}
