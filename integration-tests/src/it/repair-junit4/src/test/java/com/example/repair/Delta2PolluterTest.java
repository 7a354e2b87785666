package com.example.repair;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Case D, the polluter: changes Registry.mode, and nothing in the suite changes it back. */
public class Delta2PolluterTest {
    @Test
    public void switchesMode() {
        Registry.mode = "maintenance";
        assertEquals("maintenance", Registry.mode);
    }
}
