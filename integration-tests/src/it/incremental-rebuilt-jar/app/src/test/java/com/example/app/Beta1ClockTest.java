package com.example.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.kit.Clock;
import org.junit.jupiter.api.Test;

class Beta1ClockTest {
    @Test
    void hasAnHour() {
        assertTrue(Clock.hour() >= 0 && Clock.hour() < 24);
    }
}
