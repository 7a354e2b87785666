package com.example.j5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The polluter: logs a user in and never logs out. */
class LoginTest {
    @Test
    void logsIn() {
        Session.user = "alice";
        assertEquals("alice", Session.user);
    }
}
