package io.github.odrust.samples.shufflelib;

import java.util.Set;

/** ShuffleIT's "library": a class outside the module's code that iterates a set it is given. */
public final class ShuffleLibrary {
    private ShuffleLibrary() {}

    public static String join(Set<String> set) {
        return String.join(",", set);
    }
}
