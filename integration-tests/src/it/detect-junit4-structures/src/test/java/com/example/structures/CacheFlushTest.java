package com.example.structures;

import static org.junit.Assert.assertNull;

import org.junit.Test;

/** (a) The cleaner: resets Cache.entry (between the polluter and the victim it hides the pollution). */
public class CacheFlushTest {
    @Test
    public void flushes() {
        Cache.entry = null;
        assertNull(Cache.entry);
    }
}
