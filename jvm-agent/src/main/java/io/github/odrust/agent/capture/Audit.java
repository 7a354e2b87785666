package io.github.odrust.agent.capture;

import io.github.odrust.agent.runner.Json;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent's audit mode ({@code odrust:audit}, docs/audit.md): a capture of the static state at
 * every point of one run — before each segment (before its class is loaded), before each test of
 * the classes asked for (at its start event, before {@code @Before}), and once when the run has
 * ended — so that what each class or test leaves behind is the difference between two consecutive
 * captures. Each point is one line of {@code points.jsonl} (written as it happens): its number,
 * where it is, the test that runs next and its occurrence, and the classes initialized since the
 * previous point (so a later run can initialize them right before the segment that did, and
 * compare their state after it with their state right after initialization). Never fails the test
 * run: a problem is written to the line of its point and to stderr.
 */
public final class Audit {
    /** What one audit JVM does. */
    public static final class Settings {
        /** Which classes are captured: roots, includes and excludes as in diagnose mode. */
        public final Diagnosis.Settings classes = new Diagnosis.Settings();

        public Path dir;
        public final Set<String> captureTests = new HashSet<>();
        /** Segment index to the classes initialized right before that segment's capture. */
        public final Map<Integer, List<String>> initializeAt = new HashMap<>();

        public boolean traceOnly;
        public int limit = StateWriter.DEFAULT_LIMIT;
    }

    private static volatile Settings settings;
    private static Instrumentation inst;
    private static Access access;
    private static int points;
    private static int segment = -1;
    private static final Map<String, Integer> starts = new HashMap<>();
    private static final Set<String> initialized = new HashSet<>();
    /** Live threads (by id) and directory entries at the previous point. */
    private static Set<Long> threadsBefore;

    private static Map<String, Map<String, String>> filesBefore;

    private static Map<String, Map<String, String>> filesAtStart;

    private Audit() {}

    /** Called once from the agent's premain. */
    public static void activate(Settings s, Instrumentation instrumentation) {
        inst = instrumentation;
        settings = s;
    }

    static void segmentStarting(List<String> tests) {
        Settings s = settings;
        if (s == null) {
            return;
        }
        synchronized (Audit.class) {
            segment++;
            String next = tests.isEmpty() ? null : tests.get(0);
            point(s, "class", next, next == null ? 0 : starts.getOrDefault(next, 0) + 1);
        }
    }

    static void beforeTest(String id) {
        Settings s = settings;
        if (s == null) {
            return;
        }
        synchronized (Audit.class) {
            int n = starts.merge(id, 1, Integer::sum);
            int hash = id.indexOf('#');
            String cls = hash < 0 ? id : id.substring(0, hash);
            if (s.captureTests.contains(cls) || s.captureTests.contains("*")) {
                point(s, "test", id, n);
            }
        }
    }

    static void runEnded() {
        Settings s = settings;
        if (s == null) {
            return;
        }
        synchronized (Audit.class) {
            point(s, "end", null, 0);
        }
    }

    /**
     * Threads alive now that were not at the previous point (the JDK's own, in the "system"
     * group, left out), and entries of the working and temporary directories that were not there
     * or were written since (their time or size changed: a file an earlier JVM left is written
     * again). The first point only takes stock.
     */
    private static void leftovers(Json line, boolean end) {
        Set<Long> ids = new HashSet<>();
        List<Json> started = new ArrayList<>();
        List<Thread> live = new ArrayList<>(Thread.getAllStackTraces().keySet());
        live.sort(java.util.Comparator.comparing(Thread::getName));
        for (Thread t : live) {
            ThreadGroup g = t.getThreadGroup();
            if (!t.isAlive() || g == null || g.getName().equals("system") || jdkOrRunner(t.getName())) {
                continue;
            }
            ids.add(t.getId());
            if (threadsBefore != null && !threadsBefore.contains(t.getId())) {
                started.add(Json.obj().put("name", t.getName()).put("daemon", t.isDaemon()));
            }
        }
        Map<String, Map<String, String>> files = new HashMap<>();
        List<Json> added = new ArrayList<>();
        List<Json> left = new ArrayList<>();
        for (String key : new String[] {"user.dir", "java.io.tmpdir"}) {
            String dir = System.getProperty(key);
            java.io.File[] entries = dir == null ? null : new java.io.File(dir).listFiles();
            Map<String, String> now = new java.util.TreeMap<>();
            if (entries != null) {
                for (java.io.File f : entries) {
                    // a directory's time changes with what happens inside it (target/ as the
                    // build writes): a directory counts only when it is new
                    now.put(f.getName(), f.isDirectory() ? "dir" : f.lastModified() + ":" + f.length());
                }
            }
            files.put(key, now);
            Map<String, String> first = filesAtStart == null ? null : filesAtStart.get(key);
            if (end && first != null) {
                // what the run added or wrote and is still there when it ends
                for (Map.Entry<String, String> e : now.entrySet()) {
                    if (!e.getValue().equals(first.get(e.getKey()))) {
                        left.add(Json.obj().put("dir", key).put("name", e.getKey()));
                    }
                }
            }
            Map<String, String> before = filesBefore == null ? null : filesBefore.get(key);
            if (before != null) {
                for (Map.Entry<String, String> e : now.entrySet()) {
                    String was = before.get(e.getKey());
                    if (!e.getValue().equals(was)) {
                        added.add(Json.obj()
                                .put("dir", key)
                                .put("name", e.getKey())
                                .put("change", was == null ? "added" : "modified"));
                    }
                }
            }
        }
        if (threadsBefore != null) {
            line.put("threads_started", started);
            line.put("files_added", added);
        }
        if (end) {
            line.put("files_left", left);
        }
        if (filesAtStart == null) {
            filesAtStart = files;
        }
        threadsBefore = ids;
        filesBefore = files;
    }

    /** This JVM's process id: a run that goes on in another JVM writes other files. */
    private static final String JVM = jvmId();

    private static String jvmId() {
        String name = java.lang.management.ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        return at > 0 ? name.substring(0, at) : String.valueOf(System.nanoTime());
    }

    /** Threads of the JDK, JUnit and odrust that start on first use, not because of a test. */
    private static final String[] POOLS = {
        "odrust-",
        "ForkJoinPool.commonPool-worker-",
        "junit-jupiter-timeout-watcher",
        "junit-timeout-",
        "process reaper",
        "Common-Cleaner",
        "Attach Listener",
        "JFR ",
        "RMI ",
        "Keep-Alive-Timer",
        "Java2D Disposer",
        "AWT-",
    };

    private static boolean jdkOrRunner(String name) {
        for (String p : POOLS) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static void point(Settings s, String at, String test, int occurrence) {
        // A test that left its thread interrupted would make every write fail
        // (ClosedByInterruptException): clear the flag around the agent's own work, then set it again.
        boolean interrupted = Thread.interrupted();
        try {
            pointUninterrupted(s, at, test, occurrence);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void pointUninterrupted(Settings s, String at, String test, int occurrence) {
        points++;
        long start = System.nanoTime();
        Json line =
                Json.obj().put("point", points).put("jvm", JVM).put("at", at).put("segment", segment);
        if (test != null) {
            line.put("test", test).put("occurrence", occurrence);
        }
        try {
            if (access == null) {
                access = new Access(inst);
            }
            if (at.equals("class")) {
                List<String> failed = new ArrayList<>();
                List<String> names = s.initializeAt.getOrDefault(segment, new ArrayList<>());
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                for (String name : names) {
                    try {
                        Class.forName(name, true, loader == null ? ClassLoader.getSystemClassLoader() : loader);
                    } catch (Throwable t) {
                        failed.add(name + ": " + t);
                    }
                }
                if (!names.isEmpty()) {
                    line.put("initialized", names).put("initialize_failed", failed);
                }
            }
            List<Class<?>> classes = Diagnosis.classes(s.classes, inst);
            List<String> fresh = new ArrayList<>();
            for (Class<?> c : classes) {
                if (access.initialized(c) && initialized.add(c.getName())) {
                    fresh.add(c.getName());
                }
            }
            java.util.Collections.sort(fresh);
            line.put("new", fresh);
            leftovers(line, at.equals("end"));
            if (!s.traceOnly) {
                String name = "point-" + JVM + "-" + points + ".xml";
                String xml = new StateWriter(access, s.limit)
                        .capture(test == null ? "(end of run)" : test, Math.max(occurrence, 1), classes);
                Files.write(s.dir.resolve(name), xml.getBytes(StandardCharsets.UTF_8));
                line.put("capture", name);
            }
            if (!access.hasUnsafe()) {
                line.put("warning", access.unsafeProblem() + ": classes count as initialized");
            }
        } catch (Throwable t) {
            System.err.println("odrust-agent: audit capture failed at point " + points + ": " + t);
            line.put("error", String.valueOf(t));
        }
        line.put("time_ms", (System.nanoTime() - start) / 1_000_000);
        try {
            Files.write(
                    s.dir.resolve("points.jsonl"),
                    (line.toString() + "\n").getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (Exception e) {
            System.err.println("odrust-agent: cannot write " + s.dir.resolve("points.jsonl") + ": " + e);
        }
    }
}
