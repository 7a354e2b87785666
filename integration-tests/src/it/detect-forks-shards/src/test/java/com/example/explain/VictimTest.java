package com.example.explain;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

/** The victim: fails after a polluter unless a cleaner ran in between. */
public class VictimTest {
    @Test
    public void expectsClean() {
        assertFalse("someone left Shared.dirty set", Shared.dirty);
    }
}
