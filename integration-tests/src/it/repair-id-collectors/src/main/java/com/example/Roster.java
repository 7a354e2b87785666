package com.example;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Views of a team's members, made with collectors whose sets and maps Java does not order. */
public final class Roster {
    private Roster() {}

    /** The members' initials. */
    public static Set<String> initials(List<String> members) {
        return members.stream()
                .map(m -> m.substring(0, 1))
                .collect(Collectors.toSet());
    }

    /** The members by the length of their names. */
    public static Map<Integer, List<String>> byLength(List<String> members) {
        return members.stream().collect(Collectors.groupingBy(String::length));
    }
}
