package io.github.odrust.samples.record;

public class RecBase {
    public static int shared;
}
