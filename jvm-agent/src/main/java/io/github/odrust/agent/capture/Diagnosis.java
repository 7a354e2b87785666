package io.github.odrust.agent.capture;

import io.github.odrust.agent.runner.Json;
import java.io.ByteArrayInputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The agent's diagnose mode (docs/diagnose.md): right before the chosen start of the chosen test
 * it restores the asked-for fields from a capture (restore experiments), then writes a capture
 * of the static state (capture experiments). Configured by the {@code -javaagent} options file.
 *
 * <p>It acts at the first of three points, no earlier than the options' {@code point}, where the
 * chosen test is the next to run: {@link #CLASS} (the runner calls {@link #segmentStarting} before
 * it loads a segment's class, before its static initializer, {@code @BeforeClass}/{@code
 * @BeforeAll} and class rules, when the test is the segment's first), {@link #INSTANCE} ({@link
 * ConstructorHook} makes every constructor of the test's class call {@link #constructing} first,
 * before its field initializers and rules) and {@link #TEST} (the runner's test-start event,
 * {@link #beforeTest}, before {@code @Before}/{@code @BeforeEach}). The result file says which.
 * Never fails the test run: a problem is written to the result file and stderr.
 */
public final class Diagnosis {
    /** Before the test's class is prepared: the test is the first of its segment. */
    public static final int CLASS = 0;
    /** Before the test's instance is constructed. */
    public static final int INSTANCE = 1;
    /** At the test's start event. */
    public static final int TEST = 2;

    private static final String[] POINTS = {"class", "instance", "test"};

    /** The point named {@code name} ({@code class}, {@code instance}, {@code test}), or -1. */
    public static int point(String name) {
        return java.util.Arrays.asList(POINTS).indexOf(name);
    }

    /** What one diagnose JVM does. */
    public static final class Settings {
        /** Absolute class directories and jars whose classes are captured. */
        public final List<Path> roots = new ArrayList<>();
        /** Dotted class-name prefixes captured wherever they come from. */
        public final List<String> includes = new ArrayList<>();

        public final List<String> excludes = new ArrayList<>();
        public String test;
        public int occurrence = 1;
        public Path capture;
        public int limit = StateWriter.DEFAULT_LIMIT;
        public Path restoreFrom;
        public final List<String> restoreFields = new ArrayList<>();
        public Path result;
        /** Classes initialized right before the capture (a class the test would initialize itself). */
        public final List<String> initialize = new ArrayList<>();
        /** The earliest point to act at ({@link #CLASS}, {@link #INSTANCE} or {@link #TEST}). */
        public int point = CLASS;
    }

    private static volatile Settings settings;
    private static Instrumentation inst;
    private static int starts;
    private static boolean done;
    /** The tests of the segment that runs, as the plan lists them. */
    private static List<String> segment = Collections.emptyList();
    /** The index in {@link #segment} of the entry of the test that started last; -1 before the first. */
    private static int lastStarted = -1;
    /** Whether a test started and has not ended: a constructor called now builds its instance. */
    private static boolean running;

    private Diagnosis() {}

    /** Called once from the agent's premain. */
    public static void activate(Settings s, Instrumentation instrumentation) {
        inst = instrumentation;
        settings = s;
        if (instrumentation != null && s.point <= INSTANCE) {
            int hash = s.test.indexOf('#');
            String cls = hash < 0 ? s.test : s.test.substring(0, hash);
            instrumentation.addTransformer(new ConstructorHook(cls.replace('.', '/')), false);
        }
    }

    /** Whether the test id {@code id} (a run's, maybe {@code m[1]}) is an invocation of {@code planned}. */
    private static boolean invocationOf(String id, String planned) {
        return id.equals(planned) || id.startsWith(planned + "[");
    }

    /**
     * Called by the runner before it loads the class of a segment (a block of consecutive tests
     * of one class) and prepares it; {@code tests} as the plan lists them.
     */
    public static void segmentStarting(List<String> tests) {
        Audit.segmentStarting(tests);
        Settings s = settings;
        if (s == null) {
            return;
        }
        synchronized (Diagnosis.class) {
            segment = new ArrayList<>(tests);
            lastStarted = -1;
            running = false;
            if (done
                    || s.point > CLASS
                    || tests.isEmpty()
                    || !tests.get(0).equals(s.test)
                    || starts + 1 != s.occurrence) {
                return;
            }
            done = true;
        }
        act(s, s.test, starts + 1, CLASS);
    }

    /** Called first by each constructor of the diagnosed test's class ({@link ConstructorHook}). */
    public static void constructing(String className) {
        Settings s = settings;
        if (s == null || done || s.point > INSTANCE) {
            return;
        }
        synchronized (Diagnosis.class) {
            int next = lastStarted + 1;
            if (done
                    || running
                    || next >= segment.size()
                    || !segment.get(next).equals(s.test)
                    || !s.test.startsWith(className + "#")
                    || starts + 1 != s.occurrence) {
                return;
            }
            done = true;
        }
        act(s, s.test, starts + 1, INSTANCE);
    }

    /** Called by the runner as each test starts, before its setup. */
    public static void beforeTest(String id) {
        Audit.beforeTest(id);
        Settings s = settings;
        if (s == null) {
            return;
        }
        synchronized (Diagnosis.class) {
            // Another invocation of the entry that started last (m[1] after m[0]) stays on it; any
            // other start is of a later entry (a test listed twice starts its second entry).
            boolean sameEntry = lastStarted >= 0 && id.startsWith(segment.get(lastStarted) + "[");
            for (int i = sameEntry ? lastStarted : lastStarted + 1; i < segment.size(); i++) {
                if (invocationOf(id, segment.get(i))) {
                    lastStarted = i;
                    break;
                }
            }
            running = true;
            if (!invocationOf(id, s.test)) {
                return;
            }
            starts++;
            if (done || starts != s.occurrence) {
                return;
            }
            done = true;
        }
        act(s, id, starts, TEST);
    }

    /**
     * Called by the runner as each test ends (JUnit 4.12+ builds the instance after the start
     * event: a constructor between a start and its end belongs to the test that started).
     */
    public static void testEnded() {
        if (settings == null) {
            return;
        }
        synchronized (Diagnosis.class) {
            running = false;
        }
    }

    /** Called by the runner once every segment of the plan has run. */
    public static void runEnded() {
        Audit.runEnded();
    }

    private static void act(Settings s, String id, int occurrence, int point) {
        Json result = Json.obj().put("test", id).put("occurrence", occurrence).put("point", POINTS[point]);
        long start = System.nanoTime();
        try {
            Access access = new Access(inst);
            List<String> failed = new ArrayList<>();
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            for (String name : s.initialize) {
                try {
                    Class.forName(name, true, loader == null ? ClassLoader.getSystemClassLoader() : loader);
                } catch (Throwable t) {
                    failed.add(name + ": " + t);
                }
            }
            if (!s.initialize.isEmpty()) {
                result.put("initialized", s.initialize);
                result.put("initialize_failed", failed);
            }
            List<Class<?>> classes = classes(s);
            if (s.restoreFrom != null) {
                result.put("restored", restore(s, access, classes));
            }
            if (s.capture != null) {
                String xml = new StateWriter(access, s.limit).capture(id, occurrence, classes);
                write(s.capture, xml);
                result.put("capture", s.capture.toString());
            }
            if (!access.hasUnsafe()) {
                result.put("warning", access.unsafeProblem() + ": classes count as initialized");
            }
        } catch (Throwable t) {
            System.err.println("odrust-agent: diagnose failed before " + id + ": " + t);
            t.printStackTrace();
            result.put("error", String.valueOf(t));
        }
        result.put("time_ms", (System.nanoTime() - start) / 1_000_000);
        if (s.result != null) {
            try {
                write(s.result, result.toString() + "\n");
            } catch (Exception e) {
                System.err.println("odrust-agent: cannot write " + s.result + ": " + e);
            }
        }
    }

    private static Map<String, Object> restore(Settings s, Access access, List<Class<?>> classes) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(false);
        f.setExpandEntityReferences(false);
        DocumentBuilder b = f.newDocumentBuilder();
        Document doc = b.parse(new ByteArrayInputStream(Files.readAllBytes(s.restoreFrom)));
        Element root = doc.getDocumentElement();
        Map<String, Element> pseudo = new LinkedHashMap<>();
        Map<String, Element> statics = new LinkedHashMap<>();
        for (Element e : Restorer.children(root)) {
            if (e.getTagName().equals("pseudo")) {
                pseudo.put(e.getAttribute("name"), Restorer.children(e).get(0));
            } else if (e.getTagName().equals("class")) {
                for (Element st : Restorer.children(e)) {
                    List<Element> value = Restorer.children(st);
                    if (!value.isEmpty()) {
                        statics.put(e.getAttribute("name") + "." + st.getAttribute("field"), value.get(0));
                    }
                }
            }
        }
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> c : classes) {
            byName.putIfAbsent(c.getName(), c);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (String field : s.restoreFields) {
            Restorer r = new Restorer(access);
            try {
                if (pseudo.containsKey(field)) {
                    r.restorePseudo(field, pseudo.get(field));
                } else {
                    Element node = statics.get(field);
                    if (node == null) {
                        throw new Restorer.Unrestorable("the passing capture has no value for " + field);
                    }
                    int dot = field.lastIndexOf('.');
                    Class<?> c = byName.get(field.substring(0, dot));
                    if (c == null || !access.initialized(c)) {
                        throw new Restorer.Unrestorable(
                                "class " + field.substring(0, dot)
                                        + " is not initialized before the test in this order; a class cannot be un-initialized");
                    }
                    Field fd = c.getDeclaredField(field.substring(dot + 1));
                    r.restoreStatic(fd, field, node);
                }
                out.put(field, "restored");
            } catch (Restorer.Unrestorable e) {
                out.put(field, "not restored: " + e.getMessage());
            } catch (Throwable t) {
                out.put(field, "not restored: " + t);
            }
        }
        return out;
    }

    /** Loaded classes of the module's roots and the included prefixes, sorted by name. */
    static List<Class<?>> classes(Settings s) {
        return classes(s, inst);
    }

    /** Loaded classes of the module's roots and the included prefixes, sorted by name. */
    static List<Class<?>> classes(Settings s, Instrumentation inst) {
        if (inst == null) {
            return Collections.emptyList();
        }
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            try {
                if (c.isArray() || c.isPrimitive() || c.isSynthetic()) {
                    continue;
                }
                String n = c.getName();
                if (n.startsWith("io.github.odrust.agent.")
                        || n.contains("$$Lambda")
                        || n.contains("/")
                        || excluded(s, n)) {
                    continue;
                }
                if (included(s, n) || inRoot(s, c)) {
                    out.add(c);
                }
            } catch (Throwable t) {
                // a class that cannot even tell its name or code source is not captured
            }
        }
        out.sort(Comparator.comparing(Class::getName));
        return out;
    }

    private static boolean excluded(Settings s, String n) {
        for (String p : s.excludes) {
            if (n.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean included(Settings s, String n) {
        for (String p : s.includes) {
            if (n.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean inRoot(Settings s, Class<?> c) {
        if (c.getProtectionDomain() == null) {
            return false;
        }
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        URL u = cs == null ? null : cs.getLocation();
        if (u == null || !"file".equalsIgnoreCase(u.getProtocol())) {
            return false;
        }
        Path p;
        try {
            p = Paths.get(u.toURI()).toAbsolutePath().normalize();
        } catch (Exception e) {
            return false;
        }
        for (Path r : s.roots) {
            if (p.startsWith(r)) {
                return true;
            }
        }
        return false;
    }

    private static void write(Path file, String text) throws Exception {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
