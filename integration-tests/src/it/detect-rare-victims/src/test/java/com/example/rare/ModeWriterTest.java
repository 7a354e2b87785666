package com.example.rare;

import static org.junit.Assert.assertEquals;

import org.junit.Before;
import org.junit.Test;

/**
 * 16 tests; each starts from the default mode and one switches it to legacy. The mode stays
 * legacy after this class only when switchesToLegacy ran last in it.
 */
public class ModeWriterTest {
    @Before
    public void resetMode() {
        Settings.mode = "default";
    }

    @Test
    public void addsOne() {
        assertEquals(1, Integer.parseInt("1"));
    }

    @Test
    public void addsTwo() {
        assertEquals(2, Integer.parseInt("2"));
    }

    @Test
    public void comparesNames() {
        assertEquals(3, Integer.parseInt("3"));
    }

    @Test
    public void concatenates() {
        assertEquals(4, Integer.parseInt("4"));
    }

    @Test
    public void countsWords() {
        assertEquals(5, Integer.parseInt("5"));
    }

    @Test
    public void dividesEvenly() {
        assertEquals(6, Integer.parseInt("6"));
    }

    @Test
    public void formatsDates() {
        assertEquals(7, Integer.parseInt("7"));
    }

    @Test
    public void joinsLists() {
        assertEquals(8, Integer.parseInt("8"));
    }

    @Test
    public void multiplies() {
        assertEquals(9, Integer.parseInt("9"));
    }

    @Test
    public void parsesNumbers() {
        assertEquals(10, Integer.parseInt("10"));
    }

    @Test
    public void reversesText() {
        assertEquals(11, Integer.parseInt("11"));
    }

    @Test
    public void roundsDown() {
        assertEquals(12, Integer.parseInt("12"));
    }

    @Test
    public void splitsLines() {
        assertEquals(13, Integer.parseInt("13"));
    }

    @Test
    public void subtracts() {
        assertEquals(14, Integer.parseInt("14"));
    }

    @Test
    public void switchesToLegacy() {
        Settings.mode = "legacy";
        assertEquals("legacy", Settings.mode);
    }

    @Test
    public void trimsSpaces() {
        assertEquals(16, Integer.parseInt("16"));
    }
}
