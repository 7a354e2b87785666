package com.example.causes;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** Two more victims of the same polluter, in a second class. */
public class BravoPrintTest {
    @Test
    public void printsDefaultMode() {
        assertEquals("Settings.mode was changed by another test", "default", Settings.mode);
    }

    @Test
    public void headerNamesMode() {
        String header = "== " + Settings.mode + " ==";
        assertTrue("the header names another mode: " + header, header.equals("== default =="));
    }
}
