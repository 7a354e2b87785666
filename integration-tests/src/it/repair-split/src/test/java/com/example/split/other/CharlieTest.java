package com.example.split.other;

import static org.junit.Assert.assertEquals;

import com.example.split.Mode;
import org.junit.Test;

public class CharlieTest {
    @Test
    public void switchesToMaintenance() {
        Mode.set("maintenance");
        assertEquals("maintenance", Mode.get());
    }
}
