package com.example.structures;

import static org.junit.Assert.assertNull;

import org.junit.Test;

/** (a) The victim: fails when CacheFillTest ran before it and CacheFlushTest did not run in between. */
public class CacheCheckTest {
    @Test
    public void startsEmpty() {
        assertNull("Cache.entry was left set by another test", Cache.entry);
    }
}
