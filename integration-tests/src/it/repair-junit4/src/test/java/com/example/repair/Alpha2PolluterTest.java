package com.example.repair;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Case A, the polluter: leaves a flag in Registry.FLAGS. */
public class Alpha2PolluterTest {
    @Test
    public void addsFlag() {
        Registry.FLAGS.add("x");
        assertTrue(Registry.FLAGS.contains("x"));
    }
}
