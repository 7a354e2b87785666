package com.example;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TwinTest {
    /**
     * ID only when two calls disagree: the text of equal sets, made four times, compared. A JVM
     * keeps one order for sets of the same contents and history, so this fails only when calls
     * are permuted each on its own.
     */
    @Test
    public void sameTextEachTime() {
        String first = Twin.text();
        assertEquals(first, Twin.text());
        assertEquals(first, Twin.text());
        assertEquals(first, Twin.text());
    }
}
