package com.example.kit;

import java.util.Arrays;
import java.util.HashSet;

/** Names joined in a HashSet's iteration order, which no JDK promises. */
public final class Names {
    private Names() {}

    public static String joined(String... names) {
        return String.join(",", new HashSet<>(Arrays.asList(names)));
    }
}
