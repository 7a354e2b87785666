package com.example.causes;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The cleaner, in a fourth class: one statement that matters among several that do not. */
public class DeltaCleanupTest {
    @Test
    public void tidiesUp() {
        int answer = 6 * 7;
        assertEquals(42, answer);
        System.out.println("tidying up");
        Settings.mode = "default";
        String greeting = "hello" + ", " + "world";
        assertEquals("hello, world", greeting);
        assertTrue(Integer.parseInt("7") > 3);
    }
}
