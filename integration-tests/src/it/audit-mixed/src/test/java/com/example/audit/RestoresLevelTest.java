package com.example.audit;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RestoresLevelTest {
    @Test
    public void setsAndRestores() {
        int old = Settings.level;
        Settings.level = 5;
        try {
            assertEquals(5, Settings.level);
        } finally {
            Settings.level = old;
        }
    }
}
