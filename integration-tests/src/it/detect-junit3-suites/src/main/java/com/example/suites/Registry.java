package com.example.suites;

import java.util.ArrayList;
import java.util.List;

/** A process-wide registry: what one test registers, the next one sees. */
public final class Registry {
    private static final List<String> ENTRIES = new ArrayList<>();

    private Registry() {}

    public static void register(String entry) {
        ENTRIES.add(entry);
    }

    public static List<String> entries() {
        return new ArrayList<>(ENTRIES);
    }

    public static void clear() {
        ENTRIES.clear();
    }
}
