package com.example.two;

/** Process-wide settings: "en" and "UTC" until something sets them. */
public final class Settings {
    private static String locale = "en";
    private static String zone = "UTC";

    private Settings() {}

    public static String locale() {
        return locale;
    }

    public static void setLocale(String value) {
        locale = value;
    }

    public static String zone() {
        return zone;
    }

    public static void setZone(String value) {
        zone = value;
    }
}
