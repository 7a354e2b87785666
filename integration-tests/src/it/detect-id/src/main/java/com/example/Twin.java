package com.example;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

public final class Twin {
    private Twin() {}

    /** The same two names, from a new set each time. */
    public static String text() {
        return String.join(",", names());
    }

    /** A new set of the two names; callers count on its class being HashSet. */
    public static Set<String> names() {
        return new HashSet<>(Arrays.asList("p", "q"));
    }
}
