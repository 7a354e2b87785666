package com.example.dep;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class BetaVictimTest {
    @Test
    public void checksTwo() {
        Counters.calls++;
        assertFalse("set by PsiPolluterTest", Flags.two);
    }
}
