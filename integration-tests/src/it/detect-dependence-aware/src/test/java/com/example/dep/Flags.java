package com.example.dep;

final class Flags {
    static boolean one;
    static boolean two;

    private Flags() {}
}
