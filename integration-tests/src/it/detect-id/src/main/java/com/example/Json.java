package com.example;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/** A small JSON writer that writes a map's entries in the order the map iterates them. */
public final class Json {
    private Json() {
    }

    /** The lengths of a set's words: a LinkedHashMap here would take the set's order, which Java does not promise either. */
    public static Map<String, Integer> counts() {
        return new HashSet<>(List.of("a", "bb", "c")).stream().collect(Collectors.toMap(k -> k, String::length));
    }

    public static String of(Map<String, Integer> map) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        for (Map.Entry<String, Integer> e : map.entrySet()) {
            j.add("\"" + e.getKey() + "\":" + e.getValue());
        }
        return j.toString();
    }
}
