package com.example.isooom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.Provider;
import java.security.Security;
import org.junit.jupiter.api.Test;

/** Needs 120 MB for a moment, then keeps 75 MB where no order's end gives it back. */
class MemoryTest {
    @Test
    void needsThenKeepsMemory() {
        byte[] moment = new byte[120 << 20];
        moment[moment.length - 1] = 1;
        assertEquals(1, moment[moment.length - 1]);
        moment = null;
        Provider kept = new Provider("odrust-it-keeps-" + System.nanoTime(), "1", "keeps memory") {};
        kept.put("kept", new byte[75 << 20]);
        Security.addProvider(kept);
    }
}
