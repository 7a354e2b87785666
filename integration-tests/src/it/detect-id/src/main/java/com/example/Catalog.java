package com.example;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Names kept in sets whose iteration order Java does not promise. */
public final class Catalog {
    private Catalog() {
    }

    public static Set<String> names() {
        Set<String> names = new HashSet<>();
        names.add("a");
        names.add("b");
        names.add("c");
        names.add("d");
        names.add("e");
        return names;
    }

    /** The names, comma-separated: in whatever order the set iterates. */
    public static String joined() {
        return String.join(",", names());
    }

    public static Set<String> tags() {
        return Stream.of("x", "y", "z", "w").collect(Collectors.toSet());
    }
}
