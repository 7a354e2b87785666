package com.example.c;

public final class Util {
    private Util() {
    }

    public static int twice(int x) {
        return 2 * x;
    }
}
