package com.example.fid;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.junit.Ignore;
import org.junit.Test;

/** JUnit 4: one of each outcome. */
public class LegacyTest {
    @Test
    public void passes() {
        assertEquals(2, 1 + 1);
    }

    @Test
    public void fails() {
        assertEquals("a deliberate failure", 3, 1 + 1);
    }

    @Test
    @Ignore("skipped on purpose")
    public void ignored() {
    }

    @Test
    public void assumptionFails() {
        assumeTrue("skipped by an assumption", false);
    }
}
