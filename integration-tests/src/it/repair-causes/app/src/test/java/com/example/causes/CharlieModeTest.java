package com.example.causes;

import static org.junit.Assert.assertEquals;

import org.junit.After;
import org.junit.Test;

/** The polluter (switchesToMaintenance leaves Settings.mode changed); its tearDown() resets only the lookup counter. */
public class CharlieModeTest {
    @After
    public void tearDown() {
        Settings.lookups = 0;
    }

    @Test
    public void switchesToMaintenance() {
        Settings.mode = "maintenance";
        assertEquals("maintenance", Settings.lookup());
        assertEquals(1, Settings.lookups);
    }

    @Test
    public void countsLookups() {
        Settings.lookup();
        Settings.lookup();
        assertEquals(2, Settings.lookups);
    }
}
