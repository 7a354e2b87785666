package com.example.causes;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Two victims: fail after CharlieModeTest#switchesToMaintenance unless DeltaCleanupTest#tidiesUp ran in between. */
public class AlphaScreenTest {
    @Test
    public void showsDefaultMode() {
        assertEquals("Settings.mode was changed by another test", "default", Settings.mode);
    }

    @Test
    public void titleNamesMode() {
        String title = "Screen [" + Settings.mode + "]";
        assertEquals("Screen [default]", title);
    }
}
