package com.example.repair;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Case A, the victim: fails after Alpha2PolluterTest#addsFlag unless Alpha3CleanerTest#tidiesUp ran in between. */
public class Alpha1VictimTest {
    @Test
    public void expectsNoFlags() {
        assertTrue("Registry.FLAGS was left non-empty by another test: " + Registry.FLAGS, Registry.FLAGS.isEmpty());
    }
}
