package com.example.budget;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Broken in every order: odrust must report it as failing, not as order-dependent. */
public class AlwaysFailsTest {
    @Test
    public void fails() {
        assertEquals("always broken", 1, 2);
    }
}
