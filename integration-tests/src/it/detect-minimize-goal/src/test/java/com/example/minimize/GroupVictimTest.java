package com.example.minimize;

import static org.junit.Assert.assertFalse;

import org.junit.Test;

/** Fails only after BOTH PolluteOneTest and PolluteTwoTest: its polluters are a group of two. */
public class GroupVictimTest {
    @Test
    public void needsOneOfThemUnset() {
        assertFalse("both flags were set by other tests", Shared.first && Shared.second);
    }
}
