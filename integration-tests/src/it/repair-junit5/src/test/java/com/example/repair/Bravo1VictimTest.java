package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Case B, the victim: fails after Bravo2PolluterTest#increments unless Bravo2PolluterTest#resets ran in between. */
class Bravo1VictimTest {
    @Test
    void expectsZero() {
        assertEquals(0, Registry.counter().value(), "the counter was left non-zero by another test");
    }
}
