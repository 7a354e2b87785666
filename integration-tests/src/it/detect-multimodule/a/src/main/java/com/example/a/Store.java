package com.example.a;

public final class Store {
    public static String value;

    private Store() {
    }
}
