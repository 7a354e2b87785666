package com.example.explain;

/** Mutable static state the tests share by accident. */
public final class Shared {
    /** Left true by the polluters; reset by the cleaners. */
    public static boolean dirty;
    /** Set by the state-setters; the brittle needs it. */
    public static String config;

    private Shared() {}
}
