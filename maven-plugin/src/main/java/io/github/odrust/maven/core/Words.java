package io.github.odrust.maven.core;

/** Words for console lines: counted nouns ("1 test", "2 tests"), short test ids. */
public final class Words {
    private Words() {}

    /** {@code n} and {@code noun}, with an "s" ("es" after s, x, ch, sh) unless {@code n} is 1. */
    public static String count(long n, String noun) {
        boolean es = noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh");
        return n + " " + noun + (n == 1 ? "" : es ? "es" : "s");
    }

    /** {@code SimpleClass#method} of a test id ({@code com.acme.CartTest#isEmpty} gives {@code CartTest#isEmpty}). */
    public static String shortId(String test) {
        int hash = test.indexOf('#');
        String cls = hash < 0 ? test : test.substring(0, hash);
        return cls.substring(cls.lastIndexOf('.') + 1) + (hash < 0 ? "" : test.substring(hash));
    }
}
