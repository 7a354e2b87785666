package com.example.direct;

public final class Settings {
    /** Read from the environment in a real project; no method of the module sets it back. */
    public static String mode = initialMode();

    private Settings() {
    }

    private static String initialMode() {
        return "default";
    }

    public static boolean fast() {
        return "fast".equals(mode);
    }
}
