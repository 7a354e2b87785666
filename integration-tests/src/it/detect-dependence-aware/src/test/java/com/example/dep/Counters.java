package com.example.dep;

/** Every test counts itself here; declared dependence-free in invoker.properties. */
final class Counters {
    static int calls;

    private Counters() {}
}
