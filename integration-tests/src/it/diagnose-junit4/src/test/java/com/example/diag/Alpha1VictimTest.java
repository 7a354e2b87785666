package com.example.diag;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class Alpha1VictimTest {
    @Test
    public void expectsNoRates() {
        assertEquals(0, Prices.count());
    }
}
