package com.example.split;

/** The application's mode: "default" until something sets it. */
public final class Mode {
    private static String value = "default";

    private Mode() {}

    public static String get() {
        return value;
    }

    public static void set(String mode) {
        value = mode;
    }

    /** Back to "default": for this package only. */
    static void reset() {
        value = "default";
    }
}
