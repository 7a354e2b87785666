package com.example;

import java.util.HashMap;
import java.util.Map;

/** Two indexes kept in maps whose iteration order Java does not promise. */
public final class Index {
    private Index() {}

    /** The names, in whatever order the map iterates. */
    public static String names() {
        Map<String, Integer> byName = new HashMap<>();
        byName.put("a", 1);
        byName.put("b", 2);
        byName.put("c", 3);
        byName.put("d", 4);
        return String.join(",", byName.keySet());
    }

    /** The authors, in whatever order the map iterates. */
    public static String authors() {
        Map<String, Integer> byAuthor = new HashMap<>();
        byAuthor.put("p", 1);
        byAuthor.put("q", 2);
        byAuthor.put("r", 3);
        byAuthor.put("s", 4);
        return String.join(",", byAuthor.keySet());
    }
}
