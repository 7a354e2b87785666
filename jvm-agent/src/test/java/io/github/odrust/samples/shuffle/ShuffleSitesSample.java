package io.github.odrust.samples.shuffle;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * ShuffleIT's program for {@code only-call}: two sites take turns, each iterating a set of
 * {@code a, b} eight times (counted calls 1, 3, 5, ... at the first, 2, 4, 6, ... at the second),
 * one line per call.
 */
public final class ShuffleSitesSample {
    private ShuffleSitesSample() {}

    public static void main(String[] args) {
        for (int i = 0; i < 8; i++) {
            System.out.println(first(new HashSet<>(Arrays.asList("a", "b"))));
            System.out.println(second(new HashSet<>(Arrays.asList("a", "b"))));
        }
    }

    private static String first(Set<String> set) {
        StringBuilder line = new StringBuilder();
        for (String s : set) {
            line.append(s);
        }
        return line.toString();
    }

    private static String second(Set<String> set) {
        StringBuilder line = new StringBuilder();
        for (String s : set) {
            line.append(s);
        }
        return line.toString();
    }
}
