package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Case D, a victim no test cleans up after: no patch. */
class Delta1VictimTest {
    @Test
    void expectsDefaultMode() {
        assertEquals("default", Registry.mode, "Registry.mode was changed by another test");
    }
}
