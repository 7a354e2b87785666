package io.github.odrust.maven;

/** Counted nouns for console lines: "1 test", "2 tests". */
public final class Words {
    private Words() {}

    /** {@code n} and {@code noun}, with an "s" ("es" after s, x, ch, sh) unless {@code n} is 1. */
    public static String count(long n, String noun) {
        boolean es = noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh");
        return n + " " + noun + (n == 1 ? "" : es ? "es" : "s");
    }
}
