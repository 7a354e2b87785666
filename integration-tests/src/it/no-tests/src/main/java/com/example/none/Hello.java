package com.example.none;

public final class Hello {
    private Hello() {
    }

    public static String greet() {
        return "hello";
    }
}
