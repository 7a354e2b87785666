package com.example.dep;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class EpsilonRegistryVictimTest {
    @Test
    public void expectsAnEmptyRegistry() {
        Counters.calls++;
        assertTrue("filled by ZetaRegistryPolluterTest", Registry.ENTRIES.isEmpty());
    }
}
