package com.example.repair;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Case B, the victim: fails after Bravo2PolluterTest#increments unless Bravo2PolluterTest#resets ran in between. */
public class Bravo1VictimTest {
    @Test
    public void expectsZero() {
        assertEquals("the counter was left non-zero by another test", 0, Registry.counter().value());
    }
}
