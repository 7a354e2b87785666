package com.example.minimize;

/** State the tests share through the JVM. */
final class Shared {
    static boolean first;
    static boolean second;
    static boolean tainted;

    private Shared() {}
}
