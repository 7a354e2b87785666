package com.example.rare;

import static org.junit.Assert.assertEquals;

import org.junit.BeforeClass;
import org.junit.Test;

/** Starts from the default mode: a class run between ModeWriterTest and ModeReaderTest cleans up. */
public class ResetOneTest {
    @BeforeClass
    public static void defaults() {
        Settings.mode = "default";
    }

    @Test
    public void one() {
        assertEquals(1, Math.abs(-1));
    }

    @Test
    public void two() {
        assertEquals(2, Math.max(1, 2));
    }

    @Test
    public void three() {
        assertEquals(3, Math.min(3, 4));
    }

    @Test
    public void four() {
        assertEquals(4, 2 * 2);
    }

    @Test
    public void five() {
        assertEquals(5, 10 / 2);
    }
}
