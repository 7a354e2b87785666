package com.example.fix;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RemembersTest {
    private static final List<String> SEEN = new ArrayList<>();

    @Test
    void remembers() {
        SEEN.add("x");
        assertTrue(SEEN.contains("x"));
    }
}
