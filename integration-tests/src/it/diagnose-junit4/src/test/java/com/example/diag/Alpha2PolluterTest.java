package com.example.diag;

import org.junit.Test;

public class Alpha2PolluterTest {
    @Test
    public void setsRate() {
        Prices.set("eur", 0.9);
    }
}
