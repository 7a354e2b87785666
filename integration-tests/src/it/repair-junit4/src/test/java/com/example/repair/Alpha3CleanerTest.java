package com.example.repair;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Case A, the cleaner in a third class: one statement that matters among six that do not. */
public class Alpha3CleanerTest {
    @Test
    public void tidiesUp() {
        int answer = 6 * 7;
        assertEquals(42, answer);
        System.out.println("tidying up");
        String greeting = "hello" + ", " + "world";
        Registry.FLAGS.clear();
        assertEquals("hello, world", greeting);
        assertTrue(Integer.parseInt("7") > 3);
    }
}
