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

    /**
     * Not ID, and broken by the only repair of sameTextEachTime (a LinkedHashSet in Twin.names):
     * odrust:repair must find that in the original order and offer no patch for it.
     */
    @Test
    public void namesAreAPlainHashSet() {
        assertEquals(java.util.HashSet.class, Twin.names().getClass());
    }
}
