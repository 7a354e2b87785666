package com.example.structures;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/**
 * (d) Not idempotent, but no other test touches Counter: only [countsOnce, countsOnce] would fail,
 * so no order of distinct tests can make it fail and it must never be reported.
 */
public class IdempotenceTest {
    @Test
    public void countsOnce() {
        assertEquals("Counter.calls before this test", 0, Counter.calls);
        Counter.calls++;
    }
}
