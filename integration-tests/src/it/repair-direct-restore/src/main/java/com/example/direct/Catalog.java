package com.example.direct;

import java.util.HashMap;
import java.util.Map;

public final class Catalog {
    private Catalog() {
    }

    /** The store itself is private; code reaches it through {@link #items()}. */
    static final class Store {
        private static final Map<String, Integer> ITEMS = new HashMap<>();

        private Store() {
        }
    }

    public static Map<String, Integer> items() {
        return Store.ITEMS;
    }
}
