package com.example.tuscan;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class PsiPolluterTest {
    @Test
    public void setsTwo() {
        Flags.two = true;
    }
}
