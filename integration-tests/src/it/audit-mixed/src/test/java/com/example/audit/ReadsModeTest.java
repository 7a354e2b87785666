package com.example.audit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

class ReadsModeTest {
    @Test
    void modeIsSet() {
        assertNotNull(Settings.mode);
    }
}
