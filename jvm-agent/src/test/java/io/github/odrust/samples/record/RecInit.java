package io.github.odrust.samples.record;

/** Its static initialiser writes VALUE: that PUTSTATIC is no write. */
public class RecInit {
    public static int VALUE;

    static {
        VALUE = 42;
    }
}
