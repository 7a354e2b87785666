package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class BetaVictimTest {
    @Test
    public void checksTwo() {
        assertFalse("set by PsiPolluterTest", Flags.two);
    }
}
