package com.example;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.HashSet;

import org.junit.Test;

public class LabelsTest {
    /** ID: expects the HashSet's order of today's JDK. */
    @Test
    public void joinsInOrder() {
        String line = Labels.joined(new HashSet<>(Arrays.asList("x", "y", "z")));
        assertEquals(Labels.dateProperties() + ":xyz", line);
    }

    /** Order-free. */
    @Test
    public void datesHaveProperties() {
        assertTrue(Labels.dateProperties() > 0);
    }
}
