package com.example.diag;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class Bravo1VictimTest {
    @Test
    public void startsAtZero() {
        assertEquals(0, Counter.get());
    }
}
