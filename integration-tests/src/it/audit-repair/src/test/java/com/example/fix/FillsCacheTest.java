package com.example.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FillsCacheTest {
    private StringBuilder log = new StringBuilder();

    @AfterEach
    void tidy() {
        log.setLength(0);
    }

    @Test
    void fills() {
        Cache.put("user", "alice");
        log.append("filled");
        assertEquals("alice", Cache.get("user"));
    }
}
