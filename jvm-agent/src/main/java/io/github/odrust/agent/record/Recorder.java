package io.github.odrust.agent.record;

import java.util.Collections;
import java.util.List;

/**
 * What instrumented code calls ({@link #read}, {@link #write}) and what the runner asks at the end of
 * each test and segment. Accesses from any thread go to the sink of the moment: the running test's,
 * or between tests the running segment's (class-level setup), or nowhere.
 *
 * <p>There is one Recorder per JVM: the one the system class loader loads from the agent jar, which
 * the {@code -javaagent} option appends to the system class path. Instrumentation is only applied to
 * classes whose loader sees this very class (see {@code Transformer}).
 */
public final class Recorder {
    private static volatile boolean active;
    /** Where accesses go now; null outside segments (and always when recording is off). */
    private static volatile Bits[] current;
    private static Bits[] segment;
    private static String segmentClass;

    private Recorder() {
    }

    /** Called by instrumented code before a static-field read (or a read-like JDK call). */
    public static void read(int id) {
        Bits[] s = current;
        if (s != null) {
            s[0].set(id);
        }
    }

    /** Called by instrumented code before a static-field write (or a write-like JDK call). */
    public static void write(int id) {
        Bits[] s = current;
        if (s != null) {
            s[1].set(id);
        }
    }

    /** True when the JVM was started with the recording agent and its options were good. */
    public static boolean active() {
        return active;
    }

    static void activate() {
        active = true;
    }

    private static Bits[] sink() {
        int n = Fields.size();
        return new Bits[] {new Bits(n), new Bits(n)};
    }

    /** A segment (or a part of one) starts: accesses outside tests now belong to {@code cls}. */
    public static synchronized void beginSegment(String cls) {
        if (!active) {
            return;
        }
        segment = sink();
        segmentClass = cls;
        current = segment;
    }

    /** The segment ends: its accesses outside tests, or null when there were none. */
    public static ClassState endSegment() {
        Bits[] s;
        String cls;
        synchronized (Recorder.class) {
            if (!active || segment == null) {
                return null;
            }
            s = segment;
            cls = segmentClass;
            segment = null;
            segmentClass = null;
            current = null;
        }
        if (s[0].isEmpty() && s[1].isEmpty()) {
            return null;
        }
        Accesses a = Fields.describe(s[0].members(), s[1].members());
        return a.reads.isEmpty() && a.writes.isEmpty() ? null : new ClassState(cls, a);
    }

    /** A test starts: accesses now belong to it until {@link #endTest}. */
    public static synchronized void beginTest() {
        if (active) {
            current = sink();
        }
    }

    /** The running test ends: its accesses (empty when recording is off). */
    public static Accesses endTest() {
        Bits[] s;
        synchronized (Recorder.class) {
            if (!active) {
                return Accesses.NONE;
            }
            s = current;
            current = segment;
            if (s == null || s == segment) {
                return Accesses.NONE;
            }
        }
        return Fields.describe(s[0].members(), s[1].members());
    }

    /** Sorted field names, reads without constants, writes with the conservative mutable-read rule. */
    public static final class Accesses {
        public static final Accesses NONE = new Accesses(Collections.<String>emptyList(), Collections.<String>emptyList());
        public final List<String> reads;
        public final List<String> writes;

        Accesses(List<String> reads, List<String> writes) {
            this.reads = reads;
            this.writes = writes;
        }
    }

    /** Accesses of a segment outside its tests. */
    public static final class ClassState {
        public final String cls;
        public final Accesses accesses;

        ClassState(String cls, Accesses accesses) {
            this.cls = cls;
            this.accesses = accesses;
        }
    }
}
