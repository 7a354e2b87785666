package io.github.odrust.maven;

/** Counted nouns for console lines: "1 test", "2 tests". */
public final class Words {
    private Words() {}

    /** {@code n} and {@code noun}, with an "s" ("es" after an s) unless {@code n} is 1. */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : noun.endsWith("s") ? "es" : "s");
    }
}
