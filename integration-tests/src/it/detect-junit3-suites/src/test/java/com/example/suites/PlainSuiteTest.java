package com.example.suites;

import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestSuite;

/** The common JUnit 3 form: suite() returns the class's own tests. */
public class PlainSuiteTest extends TestCase {
    private static int counter;

    public static Test suite() {
        return new TestSuite(PlainSuiteTest.class);
    }

    public void testCounterStartsAtZero() {
        assertEquals(0, counter);
    }

    public void testCounts() {
        counter++;
        assertTrue(counter > 0);
    }

    public void testAlwaysPasses() {
        assertTrue(true);
    }
}
