package com.example.rare;

/** Global settings that tests change (and some reset). */
public final class Settings {
    /** "default" unless a test switched it. */
    public static String mode = "default";
    /** 0 unless a test bumped it. */
    public static int level;

    private Settings() {
    }
}
