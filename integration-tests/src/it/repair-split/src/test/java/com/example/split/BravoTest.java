package com.example.split;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BravoTest {
    @Test
    public void printsDefaultMode() {
        assertEquals("mode: default", "mode: " + Mode.get());
    }
}
