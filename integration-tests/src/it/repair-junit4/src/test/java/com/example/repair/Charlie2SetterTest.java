package com.example.repair;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Case C, the state-setter: one statement that matters, one that does not. */
public class Charlie2SetterTest {
    @Test
    public void turnsOn() {
        Registry.setConfig("on");
        assertEquals(3, "abc".length());
    }
}
