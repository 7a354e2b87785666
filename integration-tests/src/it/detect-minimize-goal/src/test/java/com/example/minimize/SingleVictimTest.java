package com.example.minimize;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

/** Fails after TaintTest#taints, its single polluter. */
public class SingleVictimTest {
    @Test
    public void untainted() {
        assertFalse("tainted by TaintTest", Shared.tainted);
    }
}
