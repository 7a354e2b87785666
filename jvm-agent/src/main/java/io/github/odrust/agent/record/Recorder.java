package io.github.odrust.agent.record;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

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
    /** How long a first read waits for another thread's first read in the same window before giving up (then: a write). */
    private static final long LOCK_WAIT_SECONDS = 10;

    private static volatile boolean active;
    /** Where accesses go now; null outside segments (and always when recording is off). */
    private static volatile Window current;

    private static Window segment;
    private static String segmentClass;
    /** Threads walking an object graph now; their own accesses meanwhile are not recorded. */
    private static final AtomicInteger WALKERS = new AtomicInteger();

    private static final ThreadLocal<Boolean> WALKING = new ThreadLocal<>();

    private Recorder() {}

    /**
     * A possibly-mutable field's value at its first read in a window, or any field's value right
     * before its first write there, and its fingerprint then.
     */
    private static final class Snapshot {
        final int id;
        final Object value;
        /** Taken before a write (else at a read). */
        final boolean write;

        long before;
        boolean changed;

        Snapshot(int id, Object value, long before, boolean write) {
            this.id = id;
            this.value = value;
            this.before = before;
            this.write = write;
            this.changed = before == Fingerprint.UNKNOWN;
        }
    }

    /** The accesses of one test, or of a segment outside its tests. */
    static final class Window {
        final Bits reads;
        final Bits writes;
        /** Reference-typed fields whose first read in this window is fully handled (the fast path). */
        final Bits checked;
        /** First reads that gave up waiting for the lock: writes whatever a snapshot says. */
        final Bits forced;
        /** Fields whose first write in this window is handled (a snapshot of the value before it, or none). */
        final Bits written;

        final ReentrantLock lock = new ReentrantLock();
        /** Under {@link #lock}. */
        final List<Snapshot> snapshots = new ArrayList<>();

        Window(int n) {
            reads = new Bits(n);
            writes = new Bits(n);
            checked = new Bits(n);
            forced = new Bits(n);
            written = new Bits(n);
        }
    }

    private static boolean walking() {
        return WALKERS.get() != 0 && WALKING.get() != null;
    }

    /**
     * Called by instrumented code before a static-field read (or a read-like JDK call). A read after
     * the window's own write of the field reads what the window wrote, not what an earlier test
     * left: it does not count.
     */
    public static void read(int id) {
        Window w = current;
        if (w != null && !walking() && !w.written.has(id)) {
            w.reads.set(id);
        }
    }

    /**
     * Called by instrumented code right after a {@code GETSTATIC} of a reference-typed field (other
     * than String, boxed and the like), with the value read. The first such read of a field in a
     * window fingerprints what the value refers to when the field is possibly mutable.
     */
    public static void read(Object value, int id) {
        Window w = current;
        if (w != null && !w.checked.has(id)) {
            firstRead(w, value, id);
        }
    }

    /**
     * Takes the window's lock for a first access, waiting at most {@link #LOCK_WAIT_SECONDS} for
     * another thread's; false when it gave up (the access then counts as a write).
     */
    private static boolean lock(Window w) {
        if (w.lock.tryLock()) {
            return true;
        }
        try {
            return w.lock.tryLock(LOCK_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the test's interrupt stays; the access counts as a write
            return false;
        }
    }

    private static void firstRead(Window w, Object value, int id) {
        if (WALKING.get() != null) {
            return;
        }
        if (!lock(w)) {
            // no snapshot (or one taken too late): a possibly-mutable read counts as a write
            w.forced.set(id);
            w.reads.set(id);
            w.checked.set(id);
            return;
        }
        try {
            if (w.checked.has(id)) {
                return;
            }
            if (w.written.has(id)) {
                // the window replaced the value before reading it: the write's snapshot sees any change
                w.checked.set(id);
                return;
            }
            w.reads.set(id);
            try {
                Fields.Entry e = Fields.entry(id);
                if (Fields.classify(e) == Fields.MUTABLE && !Fields.ignored(e)) {
                    w.snapshots.add(new Snapshot(id, value, walk(value), false));
                }
            } catch (Throwable t) {
                // never thrown into the test: no snapshot, so a possibly-mutable read counts as a write
            }
            w.checked.set(id);
        } finally {
            w.lock.unlock();
        }
    }

    /** The fingerprint of {@code o}, with this thread's accesses meanwhile not recorded. */
    static long walk(Object o) {
        WALKERS.incrementAndGet();
        WALKING.set(Boolean.TRUE);
        try {
            return Fingerprint.of(o);
        } finally {
            WALKING.remove();
            WALKERS.decrementAndGet();
        }
    }

    /**
     * Called by instrumented code before a static-field write (or a write-like JDK call). The first
     * write of a field in a window fingerprints its value before the write: a window that leaves the
     * value as it found it (sets it to what it was, or sets and restores it) did not write it.
     */
    public static void write(int id) {
        Window w = current;
        if (w != null && !walking()) {
            if (!w.written.has(id)) {
                firstWrite(w, id);
            }
            w.writes.set(id);
        }
    }

    private static void firstWrite(Window w, int id) {
        if (WALKING.get() != null) {
            return;
        }
        if (!lock(w)) {
            // no snapshot: the write counts
            w.forced.set(id);
            w.written.set(id);
            return;
        }
        try {
            if (w.written.has(id)) {
                return;
            }
            try {
                Fields.Entry e = Fields.entry(id);
                Fields.classify(e);
                Field f = e.field;
                if (f != null && !Fields.ignored(e)) {
                    Object before = f.get(null);
                    w.snapshots.add(new Snapshot(id, before, walk(before), true));
                }
            } catch (Throwable t) {
                // never thrown into the test: no snapshot, so the write counts
            }
            w.written.set(id);
        } finally {
            w.lock.unlock();
        }
    }

    /** True when the JVM was started with the recording agent and its options were good. */
    public static boolean active() {
        return active;
    }

    static void activate() {
        active = true;
    }

    /** A segment (or a part of one) starts: accesses outside tests now belong to {@code cls}. */
    public static synchronized void beginSegment(String cls) {
        if (!active) {
            return;
        }
        segment = new Window(Fields.size());
        segmentClass = cls;
        current = segment;
    }

    /** The segment ends: its accesses outside tests, or null when there were none. */
    public static ClassState endSegment() {
        Window s;
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
        if (s.reads.isEmpty() && s.writes.isEmpty()) {
            return null;
        }
        Accesses a = Fields.describe(s.reads.members(), s.writes.members(), settle(s));
        return a.reads.isEmpty() && a.writes.isEmpty() ? null : new ClassState(cls, a);
    }

    /** A test starts: accesses now belong to it until {@link #endTest}. */
    public static void beginTest() {
        Window seg;
        synchronized (Recorder.class) {
            if (!active) {
                return;
            }
            seg = segment;
        }
        if (seg != null) {
            compare(seg); // what the segment changed outside tests so far; the test's changes are its own
        }
        synchronized (Recorder.class) {
            current = new Window(Fields.size());
        }
    }

    /** The running test ends: its accesses (empty when recording is off). */
    public static Accesses endTest() {
        Window s;
        Window seg;
        synchronized (Recorder.class) {
            if (!active) {
                return Accesses.NONE;
            }
            s = current;
            seg = segment;
            current = segment;
            if (s == null || s == segment) {
                return Accesses.NONE;
            }
        }
        Accesses a = Fields.describe(s.reads.members(), s.writes.members(), settle(s));
        if (seg != null) {
            rebase(seg);
        }
        return a;
    }

    /** The value of a snapshot's field now (the object first read when reflection cannot tell). */
    private static Object now(Snapshot p) {
        Field f = Fields.entry(p.id).field;
        if (f != null) {
            try {
                return f.get(null);
            } catch (Throwable t) {
                // the object first read
            }
        }
        return p.value;
    }

    /** Marks the snapshots whose state differs from their fingerprint. */
    private static void compare(Window w) {
        w.lock.lock();
        try {
            for (Snapshot p : w.snapshots) {
                if (!p.changed && walk(now(p)) != p.before) {
                    p.changed = true;
                }
            }
        } finally {
            w.lock.unlock();
        }
    }

    /** Fingerprints the unchanged snapshots again (a test ran in between: its changes are not the segment's). */
    private static void rebase(Window w) {
        w.lock.lock();
        try {
            for (Snapshot p : w.snapshots) {
                if (!p.changed) {
                    p.before = walk(now(p));
                    p.changed = p.before == Fingerprint.UNKNOWN;
                }
            }
        } finally {
            w.lock.unlock();
        }
    }

    /**
     * The window ends: the fields whose state did not change, by every snapshot of them (taken at a
     * possibly-mutable field's first read and right before any field's first write); a written field
     * only when a snapshot was taken before its first write.
     */
    private static Bits settle(Window w) {
        compare(w);
        Bits unchanged = new Bits(Fields.size());
        Bits changed = new Bits(Fields.size());
        Bits beforeWrite = new Bits(Fields.size());
        w.lock.lock();
        try {
            for (Snapshot p : w.snapshots) {
                if (p.changed || w.forced.has(p.id)) {
                    changed.set(p.id);
                }
                if (p.write) {
                    beforeWrite.set(p.id);
                }
            }
            for (Snapshot p : w.snapshots) {
                if (!changed.has(p.id) && (!w.writes.has(p.id) || beforeWrite.has(p.id))) {
                    unchanged.set(p.id);
                }
            }
        } finally {
            w.lock.unlock();
        }
        return unchanged;
    }

    /** Sorted field names, reads without constants, writes with the mutable-read rule (fingerprints). */
    public static final class Accesses {
        public static final Accesses NONE =
                new Accesses(Collections.<String>emptyList(), Collections.<String>emptyList());
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
