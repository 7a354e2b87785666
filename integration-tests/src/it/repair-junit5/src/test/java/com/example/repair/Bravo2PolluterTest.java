package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Case B: the polluter and, in the same class, the cleaner; both work on the field set up here.
 * Their order inside the class does not matter: the victim's class runs before this one.
 */
class Bravo2PolluterTest {
    private Registry.Counter counter;

    @BeforeEach
    void setUp() {
        counter = Registry.counter();
    }

    @Test
    void increments() {
        counter.increment();
        assertTrue(counter.value() > 0);
    }

    @Test
    void resets() {
        counter.reset();
        assertEquals(0, counter.value());
    }
}
