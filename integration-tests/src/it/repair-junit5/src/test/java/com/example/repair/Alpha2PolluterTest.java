package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Case A, the polluter: leaves a flag in Registry.FLAGS. */
class Alpha2PolluterTest {
    @Test
    void addsFlag() {
        Registry.FLAGS.add("x");
        assertTrue(Registry.FLAGS.contains("x"));
    }
}
