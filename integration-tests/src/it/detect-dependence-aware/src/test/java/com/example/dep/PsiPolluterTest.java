package com.example.dep;

import org.junit.Test;

public class PsiPolluterTest {
    @Test
    public void setsTwo() {
        Counters.calls++;
        Flags.two = true;
    }
}
