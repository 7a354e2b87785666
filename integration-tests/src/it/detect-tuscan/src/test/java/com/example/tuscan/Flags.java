package com.example.tuscan;

final class Flags {
    static boolean one;
    static boolean two;

    private Flags() {}
}
