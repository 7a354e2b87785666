package com.example.b;

public final class Registry {
    public static boolean ready;

    private Registry() {
    }
}
