package com.example.j5;

/** Global state: LoginTest sets it and never resets it. */
public final class Session {
    public static String user;

    private Session() {
    }
}
