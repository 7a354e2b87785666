package com.example.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CounterTest {
    static int calls;

    @Test
    void incrementsOnce() {
        calls++;
        assertEquals(1, calls);
    }
}
