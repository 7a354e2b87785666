package com.example.det;

public final class Store {
    public static String value;

    private Store() {
    }
}
