package com.example.repair;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Case D, a victim no test cleans up after: no patch. */
public class Delta1VictimTest {
    @Test
    public void expectsDefaultMode() {
        assertEquals("Registry.mode was changed by another test", "default", Registry.mode);
    }
}
