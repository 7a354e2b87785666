package com.example.diag;

import org.junit.Test;

public class Bravo2PolluterTest {
    @Test
    public void increments() {
        Counter.increment();
    }
}
