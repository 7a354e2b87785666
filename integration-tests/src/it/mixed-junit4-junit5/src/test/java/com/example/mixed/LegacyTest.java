package com.example.mixed;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** A JUnit 4 test. */
public class LegacyTest {
    @Test
    public void a1() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void a2() {
        assertEquals(3, 1 + 2);
    }
}
