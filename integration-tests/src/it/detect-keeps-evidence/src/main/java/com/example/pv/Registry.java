package com.example.pv;

/** Global state shared by the tests: the polluter sets it and never resets it. */
public final class Registry {
    public static String current;

    private Registry() {
    }
}
