package com.example.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TeardownTest {
    private int old;

    @BeforeEach
    void raise() {
        old = Settings.level;
        Settings.level = 9;
    }

    @AfterEach
    void restore() {
        Settings.level = old;
    }

    @Test
    void seesRaisedLevel() {
        assertEquals(9, Settings.level);
    }
}
