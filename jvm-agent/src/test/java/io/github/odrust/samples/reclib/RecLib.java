package io.github.odrust.samples.reclib;

/** A "library" class: RecordIT loads it from a directory that is not a root. */
public class RecLib {
    public static int hits;

    public static void hit() {
        hits++;
    }
}
