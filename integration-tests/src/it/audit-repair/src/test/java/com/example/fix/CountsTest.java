package com.example.fix;

import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class CountsTest {
    @Test
    public void counts() {
        Counter.count++;
        assertTrue(Counter.count > 0);
    }
}
