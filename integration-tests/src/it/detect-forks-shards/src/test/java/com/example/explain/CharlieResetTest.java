package com.example.explain;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

/** A cleaner in a third class. */
public class CharlieResetTest {
    @Test
    public void resets() {
        Shared.dirty = false;
        assertFalse(Shared.dirty);
    }
}
