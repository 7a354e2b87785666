package com.example.inc;

public final class Calc {
    private static int offset;

    private Calc() {
    }

    public static void setOffset(int o) {
        offset = o;
    }

    public static int add(int a, int b) {
        return a + b + offset;
    }
}
