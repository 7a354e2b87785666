package com.example;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Sets whose iteration order Java does not promise. */
public final class Shelf {
    private Shelf() {}

    public static Set<String> books() {
        return Stream.of("x", "y", "z", "w").collect(Collectors.toSet());
    }

    public static Set<String> authors() {
        return Stream.of("b", "d", "a", "c").collect(Collectors.toSet());
    }
}
