package com.example.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.example.kit.Registry;
import org.junit.jupiter.api.Test;

class Alpha1CtorVictimTest {
    private final int entries;

    Alpha1CtorVictimTest() {
        if (!Registry.ENTRIES.isEmpty()) {
            throw new IllegalStateException("registry not empty: " + Registry.ENTRIES);
        }
        entries = Registry.ENTRIES.size();
    }

    @Test
    void startsWithAnEmptyRegistry() {
        assertEquals(0, entries);
    }
}
