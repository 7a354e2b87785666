package com.example.explain;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The first polluter, and a cleaner in the polluter's own class. */
public class AlphaPolluterTest {
    @Test
    public void leavesDirty() {
        Shared.dirty = true;
        assertTrue(Shared.dirty);
    }

    @Test
    public void tidiesUp() {
        Shared.dirty = false;
    }

    @Test
    public void unrelated() {
        assertTrue(1 + 1 == 2);
    }
}
