package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Case A, the victim: fails after Alpha2PolluterTest#addsFlag unless Alpha3CleanerTest#tidiesUp ran in between. */
class Alpha1VictimTest {
    @Test
    void expectsNoFlags() {
        assertTrue(Registry.FLAGS.isEmpty(), "Registry.FLAGS was left non-empty by another test: " + Registry.FLAGS);
    }
}
