package com.example;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** Tags, kept in sets whose order Java does not promise. */
public final class Tags {
    private Tags() {}

    /** The tags, upper-cased, each once: collected from a set of them. */
    public static Set<String> upper(List<String> tags) {
        Set<String> unique = new HashSet<>(tags);
        return unique.stream()
                .map(t -> t.toUpperCase(Locale.ROOT))
                .collect(Collectors.toSet());
    }
}
