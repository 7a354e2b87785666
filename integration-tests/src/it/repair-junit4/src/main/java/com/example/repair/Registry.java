package com.example.repair;

import java.util.HashSet;
import java.util.Set;

/** Plain static state the tests share by accident: one piece per case of the fixture. */
public final class Registry {
    /** Case A: filled by the polluter, emptied by the cleaner. */
    public static final Set<String> FLAGS = new HashSet<>();

    /** Case B: a counter the polluter increments and the cleaner resets. */
    public static final class Counter {
        private int value;

        public void increment() {
            value++;
        }

        public void reset() {
            value = 0;
        }

        public int value() {
            return value;
        }
    }

    private static final Counter COUNTER = new Counter();

    public static Counter counter() {
        return COUNTER;
    }

    /** Case C: null until a state-setter sets it. */
    private static String config;

    public static String config() {
        return config;
    }

    public static void setConfig(String value) {
        config = value;
    }

    /** Case D: changed by the polluter, reset by nobody. */
    public static String mode = "default";

    private Registry() {}
}
