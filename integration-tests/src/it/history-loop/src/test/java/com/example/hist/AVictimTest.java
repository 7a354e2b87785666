package com.example.hist;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class AVictimTest {
    @Test
    public void startsEmpty() {
        assertTrue(Registry.NAMES.isEmpty());
    }
}
