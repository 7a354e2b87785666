package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Case A, the cleaner in a third class: one statement that matters among six that do not. */
class Alpha3CleanerTest {
    @Test
    void tidiesUp() {
        int answer = 6 * 7;
        assertEquals(42, answer);
        System.out.println("tidying up");
        String greeting = "hello" + ", " + "world";
        Registry.FLAGS.clear();
        assertEquals("hello, world", greeting);
        assertTrue(Integer.parseInt("7") > 3);
    }
}
