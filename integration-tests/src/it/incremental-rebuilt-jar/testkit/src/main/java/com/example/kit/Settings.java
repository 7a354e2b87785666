package com.example.kit;

/** Settings a test must initialize; no reset. */
public final class Settings {
    private static String mode;

    private Settings() {}

    public static void init() {
        mode = "strict";
    }

    public static String mode() {
        return mode;
    }
}
