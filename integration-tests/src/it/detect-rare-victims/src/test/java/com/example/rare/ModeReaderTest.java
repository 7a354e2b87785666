package com.example.rare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The victim: fails when the mode is legacy, so only right after ModeWriterTest ended with switchesToLegacy. */
public class ModeReaderTest {
    @Test
    public void readsDefaultMode() {
        assertEquals("default", Settings.mode);
    }

    @Test
    public void checksLength() {
        assertEquals(4, "rare".length());
    }

    @Test
    public void checksEmpty() {
        assertTrue("".isEmpty());
    }

    @Test
    public void checksUpper() {
        assertEquals("RARE", "rare".toUpperCase());
    }

    @Test
    public void checksIndex() {
        assertEquals(2, "rare".indexOf('r', 1));
    }

    @Test
    public void checksSum() {
        assertEquals(10, 1 + 2 + 3 + 4);
    }
}
