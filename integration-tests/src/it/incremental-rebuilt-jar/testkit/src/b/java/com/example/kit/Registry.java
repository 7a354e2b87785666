package com.example.kit;

import java.util.HashMap;
import java.util.Map;

/** A registry tests share. */
public final class Registry {
    public static final Map<String, String> ENTRIES = new HashMap<>();
    /** When this JVM first used the registry: differs in every JVM. */
    public static long startedNanos = System.nanoTime();

    private Registry() {}

    /** Adds an entry: the field is touched here, in testkit's code, not in the test's. */
    public static void register(String key, String value) {
        ENTRIES.put(key, value);
    }
}
