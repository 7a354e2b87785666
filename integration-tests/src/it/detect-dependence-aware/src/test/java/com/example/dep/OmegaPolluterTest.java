package com.example.dep;

import org.junit.Test;

public class OmegaPolluterTest {
    @Test
    public void setsOne() {
        Counters.calls++;
        Flags.one = true;
    }
}
