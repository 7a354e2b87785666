package com.example.j5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Runs before LoginTest in the original (alphabetical) order; its @Nested victim needs no user. */
class AccountTest {
    @Test
    void opens() {
        assertEquals(4, 2 + 2);
    }

    @Nested
    class WhenAnonymous {
        @Test
        void hasNoUser() {
            assertNull(Session.user, "Session.user was left set by another test");
        }

        @Test
        void countsZero() {
            assertEquals(0, "".length());
        }
    }
}
