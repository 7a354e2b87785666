package com.example.diag;

public final class Counter {
    private static int count;

    private Counter() {
    }

    public static void increment() {
        count++;
    }

    public static int get() {
        return count;
    }
}
