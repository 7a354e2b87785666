package com.example.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Case C, the state-setter: one statement that matters, one that does not. */
class Charlie2SetterTest {
    @Test
    void turnsOn() {
        Registry.setConfig("on");
        assertEquals(3, "abc".length());
    }
}
