package com.example.core;

/** Nothing the goals of this fixture build (they run -pl app). */
public final class Strings {
    public static String shout(String s) {
        return s.toUpperCase() + "!";
    }

    private Strings() {}
}
