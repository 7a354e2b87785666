package com.example.nod;

import static org.junit.Assert.assertTrue;

import java.util.Random;

import org.junit.Test;

/** Fails with probability 1/2 in every run, whatever the order: non-order-dependent flakiness. */
public class CoinTest {
    @Test
    public void flipsHeads() {
        assertTrue("the coin came up tails", new Random().nextBoolean());
    }
}
