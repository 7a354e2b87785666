package io.github.odrust.agent.runner;

import io.github.odrust.agent.capture.Diagnosis;
import io.github.odrust.agent.record.Recorder;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes JSON Lines, one flushed line per event. Thread-safe. Remembers the test that is running
 * (between {@code test-start} and its {@code test}) so a shutdown hook can name it.
 */
public final class EventWriter {
    private final Writer out;
    private volatile String running;
    private volatile boolean ended;
    private volatile boolean closed;
    private volatile boolean testSeen;
    /** The class whose segment sink {@link #segmentStarting} opened before its first segment event. */
    private String prepared;

    public EventWriter(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            java.nio.file.Files.createDirectories(parent);
        }
        this.out = new OutputStreamWriter(new FileOutputStream(file.toFile(), false), StandardCharsets.UTF_8);
    }

    public synchronized void write(Json event) {
        if (closed) {
            return;
        }
        try {
            out.write(event.toString());
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            System.err.println("odrust-agent: cannot write event: " + e);
        }
    }

    /** Shuffle mode: the runtime's {@code count()} of counted calls; null in any other mode. */
    private static volatile java.lang.reflect.Method callCount;

    /** The shuffle agent hands over its runtime's count: each {@code test} event then says its calls. */
    public static void countCallsWith(java.lang.reflect.Method count) {
        callCount = count;
    }

    /** The counted calls so far; -1 when not counting. */
    private static long calls() {
        java.lang.reflect.Method m = callCount;
        if (m == null) {
            return -1;
        }
        try {
            return ((Number) m.invoke(null)).longValue();
        } catch (Throwable t) {
            return -1;
        }
    }

    /** The count at the running test's {@code test-start}; -1 when not counting. */
    private volatile long callsAtStart = -1;

    public void testStarted(String id) {
        running = id;
        callsAtStart = calls();
        Recorder.beginTest();
        Diagnosis.beforeTest(id);
        Json event = Json.event("test-start").put("test", id);
        if (!testSeen) {
            // The JVM's clock at its first test: where its start-up cost ends (docs/protocol.md).
            testSeen = true;
            event.put("uptime_ms", uptimeMs());
        }
        write(event);
    }

    /** Where {@link #uptimeMs} counts from in a shared JVM: the start of the current order. */
    private static volatile long clockOrigin;

    /** A shared JVM (docs/isolation.md) counts each order's clock from when it picked the order up. */
    public static void clockOrigin(long uptimeMs) {
        clockOrigin = uptimeMs;
    }

    /**
     * Milliseconds since this JVM started ({@code RuntimeMXBean}), or in a shared JVM since the
     * current order was picked up; null when unknown.
     */
    public static Long uptimeMs() {
        try {
            return java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() - clockOrigin;
        } catch (Throwable t) {
            return null;
        }
    }

    /** Writes one {@code test} event. */
    public void test(String id, String outcome, long timeMs, Throwable t, String message) {
        boolean wasRunning = id.equals(running);
        if (wasRunning) {
            running = null;
        }
        Diagnosis.testEnded();
        String msg = message;
        if (msg == null && t != null) {
            msg = t.getMessage();
        }
        Json event = Json.event("test")
                .put("test", id)
                .put("outcome", outcome)
                .put("time_ms", timeMs)
                .put("message", msg)
                .put("exception", t == null ? null : t.getClass().getName())
                .put("trace", t == null ? null : trace(t));
        long before = callsAtStart;
        if (wasRunning && before >= 0) {
            long now = calls();
            if (now >= before) {
                event.put("calls", now - before);
            }
        }
        String[] compared = compared(t);
        if (compared != null) {
            event.put("expected", compared[0]).put("actual", compared[1]);
        }
        if (Recorder.active()) {
            Recorder.Accesses a;
            try {
                a = wasRunning ? Recorder.endTest() : Recorder.Accesses.NONE;
            } catch (Throwable e) {
                // never happens in practice; no reads/writes then reads as "not recorded"
                System.err.println("odrust-agent: cannot report static-field accesses of " + id + ": " + e);
                a = null;
            }
            if (a != null) {
                event.put("reads", a.reads).put("writes", a.writes);
            }
        }
        write(event);
    }

    /**
     * The expected and actual values of a failed comparison, in full, as the assertion library
     * holds them: JUnit 3/4's {@code ComparisonFailure} ({@code getExpected()} is a String; its
     * message is shortened), opentest4j's {@code AssertionFailedError} (JUnit 5, AssertJ: a
     * {@code ValueWrapper} whose {@code getStringRepresentation()} is the value's text). Null for
     * any other failure, or when the values are not known.
     */
    /** The longest expected or actual value {@link #compared} reports (in chars). */
    static final int COMPARED_LIMIT = 64 * 1024;

    static String[] compared(Throwable t) {
        if (t == null) {
            return null;
        }
        try {
            java.lang.reflect.Method ge = t.getClass().getMethod("getExpected");
            java.lang.reflect.Method ga = t.getClass().getMethod("getActual");
            Object e = ge.invoke(t);
            Object a = ga.invoke(t);
            String es = text(e);
            String as = text(a);
            // a comparison of huge texts is not copied into every run's events
            return es == null || as == null || es.length() > COMPARED_LIMIT || as.length() > COMPARED_LIMIT
                    ? null
                    : new String[] {es, as};
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private static String text(Object value) throws ReflectiveOperationException {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        // opentest4j ValueWrapper
        java.lang.reflect.Method m = value.getClass().getMethod("getStringRepresentation");
        Object s = m.invoke(value);
        return s instanceof String ? (String) s : null;
    }

    /**
     * Writes a {@code segment} event; with static-field recording on, first the {@code class-state}
     * of the part before it, and accesses outside tests then belong to {@code cls}.
     */
    public synchronized void segment(String cls, Json event) {
        if (prepared != null && prepared.equals(cls)) {
            prepared = null; // the first part: its sink is open since segmentStarting
            write(event);
            return;
        }
        prepared = null;
        classState();
        write(event);
        Recorder.beginSegment(cls);
    }

    /**
     * A plan segment is about to be prepared (class loaded, JUnit runner built: parameter factories
     * run then): with recording on, what happens from here belongs to {@code cls}.
     */
    public synchronized void segmentStarting(String cls) {
        if (!Recorder.active()) {
            return;
        }
        classState();
        Recorder.beginSegment(cls);
        prepared = cls;
    }

    /** Writes the {@code class-state} event of the segment (part) that ends, if it accessed anything. */
    private synchronized void classState() {
        if (!Recorder.active() || closed) {
            return;
        }
        Recorder.ClassState s;
        try {
            s = Recorder.endSegment();
        } catch (Throwable t) {
            System.err.println("odrust-agent: cannot report static-field accesses: " + t);
            return;
        }
        if (s != null) {
            write(Json.event("class-state")
                    .put("class", s.cls)
                    .put("reads", s.accesses.reads)
                    .put("writes", s.accesses.writes));
        }
    }

    public String running() {
        return running;
    }

    public void warning(String cls, String message) {
        write(Json.event("warning").put("class", cls).put("message", message));
    }

    public synchronized void end() {
        classState();
        write(Json.event("end").put("uptime_ms", uptimeMs()));
        ended = true;
    }

    /** Writes {@code agent-error}; the stream is then finished (no {@code end}, no {@code exit}). */
    /** The tests ran the JVM out of memory: the running test crashed, not odrust. */
    public synchronized void outOfMemory(String message) {
        write(Json.event("out-of-memory").put("message", message));
        ended = true;
    }

    public synchronized void agentError(String message) {
        classState();
        write(Json.event("agent-error").put("message", message));
        ended = true;
    }

    public boolean ended() {
        return ended;
    }

    /** Called by the shutdown hook: records that the JVM is leaving before {@code end}. */
    public synchronized void exitIfNotEnded() {
        if (!ended && !closed) {
            classState();
            write(Json.event("exit").put("status", null).put("test", running));
            ended = true;
        }
    }

    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                System.err.println("odrust-agent: cannot close events file: " + e);
            }
        }
    }

    public static String trace(Throwable t) {
        StringWriter sw = new StringWriter();
        PrintWriter pw = new PrintWriter(sw);
        try {
            t.printStackTrace(pw);
        } catch (Throwable weird) {
            pw.print(t.getClass().getName());
        }
        pw.flush();
        String s = sw.toString();
        // drop the trailing line separator
        while (s.endsWith("\n") || s.endsWith("\r")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }
}
