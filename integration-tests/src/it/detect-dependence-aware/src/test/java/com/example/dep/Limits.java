package com.example.dep;

/** Constants that are not inlined by javac: reading them is no dependence. */
final class Limits {
    static final Integer MAX = Integer.valueOf(10);
    static final String NAME = String.valueOf("limits");

    private Limits() {}
}
