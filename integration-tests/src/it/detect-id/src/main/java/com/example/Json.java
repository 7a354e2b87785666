package com.example;

import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A small JSON writer that writes a map's entries in the order the map iterates them. */
public final class Json {
    private Json() {
    }

    public static Map<String, Integer> counts() {
        return Stream.of("a", "bb", "ccc").collect(Collectors.toMap(k -> k, String::length));
    }

    public static String of(Map<String, Integer> map) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        for (Map.Entry<String, Integer> e : map.entrySet()) {
            j.add("\"" + e.getKey() + "\":" + e.getValue());
        }
        return j.toString();
    }
}
