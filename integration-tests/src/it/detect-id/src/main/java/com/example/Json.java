package com.example;

import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

/** A small JSON writer that writes a map's entries in the order the map iterates them. */
public final class Json {
    private Json() {
    }

    /** The lengths of some words, in a map made by "double brace initialization" (an anonymous HashMap). */
    public static Map<String, Integer> counts() {
        return new HashMap<String, Integer>() {
            {
                put("a", 1);
                put("bb", 2);
                put("c", 1);
            }
        };
    }

    public static String of(Map<String, Integer> map) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        for (Map.Entry<String, Integer> e : map.entrySet()) {
            j.add("\"" + e.getKey() + "\":" + e.getValue());
        }
        return j.toString();
    }
}
