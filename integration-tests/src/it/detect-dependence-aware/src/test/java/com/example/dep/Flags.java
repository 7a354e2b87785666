package com.example.dep;

final class Flags {
    static boolean one;
    static boolean two;
    static boolean ready;

    private Flags() {}
}
