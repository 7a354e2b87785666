package io.github.odrust.samples.record;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Possibly-mutable static state whose reads count as writes only when a test changes it (see RecordIT). */
public class RecLookup {
    /** A read-only lookup table (values of a project class: hashed through their fields). */
    public static final Map<Character, Code> TABLE = new HashMap<>();
    /** A stateless lambda. */
    public static final Function<String, Integer> DECODER = s -> s.length();

    public static final AtomicInteger COUNTER = new AtomicInteger();
    public static final int[] CELLS = new int[8];
    /** More than the fingerprint budget: always a write. */
    public static final List<Integer> HUGE = new ArrayList<>(Collections.nCopies(100_000, 1));
    /** Read by several threads at once. */
    public static final Map<Integer, Integer> SHARED = new java.util.concurrent.ConcurrentHashMap<>();
    /** Plain statics a test may set to what they already hold (then it wrote nothing). */
    public static int level;

    public static String mode = "a";
    public static Code current = new Code(1, "b");
    /** An object graph with a cycle. */
    public static final Node SELF = new Node();

    /** A value class of the lookup table. */
    public static final class Code {
        final int bits;
        final String name;

        Code(int bits, String name) {
            this.bits = bits;
            this.name = name;
        }

        public int bits() {
            return bits;
        }
    }

    /** Refers to itself. */
    public static final class Node {
        Node next = this;
        int value;
    }

    static {
        for (char c = 'a'; c <= 'z'; c++) {
            TABLE.put(c, new Code(c - 'a', String.valueOf(c)));
        }
    }
}
