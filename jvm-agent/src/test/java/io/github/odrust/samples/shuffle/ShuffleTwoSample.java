package io.github.odrust.samples.shuffle;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * ShuffleIT's program for calls of two elements: sixteen sets of {@code a, b}, each iterated once
 * (one counted call each), one line per call.
 */
public final class ShuffleTwoSample {
    private ShuffleTwoSample() {}

    public static void main(String[] args) {
        for (int i = 0; i < 16; i++) {
            Set<String> set = new HashSet<>(Arrays.asList("a", "b"));
            StringBuilder line = new StringBuilder();
            for (String s : set) {
                line.append(s);
            }
            System.out.println(line);
        }
    }
}
