package com.example.fix;

import java.util.HashMap;
import java.util.Map;

public final class Cache {
    private static final Map<String, String> ENTRIES = new HashMap<>();

    private Cache() {}

    public static void put(String key, String value) {
        ENTRIES.put(key, value);
    }

    public static String get(String key) {
        return ENTRIES.get(key);
    }

    public static void clear() {
        ENTRIES.clear();
    }
}
