package com.example.kit;

import java.util.HashMap;
import java.util.Map;

/** A registry tests share. */
public final class Registry {
    public static final Map<String, String> ENTRIES = new HashMap<>();
    /** When this JVM first used the registry: differs in every JVM. */
    public static long startedNanos = System.nanoTime();

    private Registry() {}
}
