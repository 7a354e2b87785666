package com.example.dep;

import org.junit.Test;

public class ZetaRegistryPolluterTest {
    @Test
    public void registers() {
        Counters.calls++;
        Registry.ENTRIES.put("zeta", "registered");
    }
}
