package com.example.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FixtureTest {
    static StringBuilder shared;

    @BeforeEach
    void fresh() {
        shared = new StringBuilder("x");
    }

    @Test
    void appends() {
        shared.append("y");
        assertEquals("xy", shared.toString());
    }

    @Test
    void reads() {
        assertEquals("x", shared.toString());
    }
}
