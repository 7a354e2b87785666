package com.example.demo;

import java.util.ArrayList;
import java.util.List;

/** A process-wide registry: shared static state, the usual root of order-dependent tests. */
public final class Registry {
    private static final List<String> NAMES = new ArrayList<>();

    private Registry() {}

    public static void register(String name) {
        NAMES.add(name);
    }

    public static List<String> names() {
        return new ArrayList<>(NAMES);
    }

    public static void clear() {
        NAMES.clear();
    }
}
