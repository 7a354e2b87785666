package com.example.hist;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BPolluterTest {
    @Test
    public void addsOne() {
        Registry.NAMES.add("one");
        assertEquals("one", Registry.NAMES.get(Registry.NAMES.size() - 1));
    }
}
