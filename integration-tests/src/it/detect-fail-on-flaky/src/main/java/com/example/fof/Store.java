package com.example.fof;

public final class Store {
    public static String value;

    private Store() {
    }
}
