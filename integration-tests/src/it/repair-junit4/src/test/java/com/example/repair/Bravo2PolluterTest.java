package com.example.repair;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Before;
import org.junit.Test;

/** Case B: the polluter and, in the same class, the cleaner; both work on the field set up here. */
public class Bravo2PolluterTest {
    private Registry.Counter counter;

    @Before
    public void setUp() {
        counter = Registry.counter();
    }

    @Test
    public void increments() {
        counter.increment();
        assertTrue(counter.value() > 0);
    }

    @Test
    public void resets() {
        counter.reset();
        assertEquals(0, counter.value());
    }
}
