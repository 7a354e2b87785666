package com.example.structures;

/** Structure (d): only IdempotenceTest touches it. */
public final class Counter {
    public static int calls;

    private Counter() {
    }
}
