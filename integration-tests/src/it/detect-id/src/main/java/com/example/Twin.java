package com.example;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

public final class Twin {
    private Twin() {}

    /** The same two names, from a new set each time. */
    public static String text() {
        Set<String> names = new HashSet<>(Arrays.asList("p", "q"));
        return String.join(",", names);
    }
}
