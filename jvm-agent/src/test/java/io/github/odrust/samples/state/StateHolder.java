package io.github.odrust.samples.state;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/** Static state of every shape a capture must write (CaptureTest, CaptureIT). */
public final class StateHolder {
    public enum Mode {
        SLOW,
        FAST
    }

    /** A node of a cycle. */
    public static final class Node {
        public String name;
        public Node next;

        public Node(String name) {
            this.name = name;
        }
    }

    /** A singleton with an inner map (the polluted state of a registry). */
    public static final class Registry {
        static final Registry INSTANCE = new Registry();
        final Map<String, Integer> jobs = new HashMap<>();
        int version;

        public static Registry getInstance() {
            return INSTANCE;
        }

        public int jobCount() {
            return jobs.size();
        }

        public int version() {
            return version;
        }
    }

    public static final Map<String, Double> RATES = new HashMap<>();
    public static List<String> names = new ArrayList<>();
    public static int[] counts = {1, 2, 3};
    public static Mode mode = Mode.SLOW;
    public static Node ring;
    public static Object alias;
    public static final Set<Integer> SEEN = new HashSet<>();
    public static final AtomicReference<String> CURRENT = new AtomicReference<>("none");
    public static final int CONSTANT = 7;
    public static String label = "plain";
    public static Map<String, String> ordered = new LinkedHashMap<>();
    /** A NUL char: XML cannot hold it, the capture writes \u0000. */
    public static char[] buffer = {'a', '\u0000'};

    static {
        ring = new Node("a");
        ring.next = new Node("b");
        ring.next.next = ring;
        alias = names;
    }

    private StateHolder() {}

    /** Back to the state after class initialization. */
    public static void reset() {
        RATES.clear();
        names = new ArrayList<>();
        alias = names;
        counts = new int[] {1, 2, 3};
        mode = Mode.SLOW;
        SEEN.clear();
        CURRENT.set("none");
        label = "plain";
        ordered = new LinkedHashMap<>();
        buffer = new char[] {'a', '\u0000'};
        Registry.INSTANCE.jobs.clear();
        Registry.INSTANCE.version = 0;
    }

    /** What a polluter does. */
    public static void pollute() {
        RATES.put("eur", 0.9);
        names.add("x");
        counts[1] = 20;
        mode = Mode.FAST;
        SEEN.add(42);
        CURRENT.set("busy");
        label = "changed";
        Registry.INSTANCE.jobs.put("job-1", 3);
        Registry.INSTANCE.version = 2;
    }
}
