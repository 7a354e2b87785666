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
 * of the static state (capture experiments). Configured by the {@code -javaagent} options file;
 * the runner calls {@link #beforeTest} from its test-start event. Never fails the test run: a
 * problem is written to the result file and stderr.
 */
public final class Diagnosis {
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
    }

    private static volatile Settings settings;
    private static Instrumentation inst;
    private static int starts;
    private static boolean done;

    private Diagnosis() {}

    /** Called once from the agent's premain. */
    public static void activate(Settings s, Instrumentation instrumentation) {
        inst = instrumentation;
        settings = s;
    }

    /** Called by the runner as each test starts, before its setup. */
    public static void beforeTest(String id) {
        Settings s = settings;
        if (s == null || done || !(id.equals(s.test) || id.startsWith(s.test + "["))) {
            return;
        }
        synchronized (Diagnosis.class) {
            starts++;
            if (done || starts != s.occurrence) {
                return;
            }
            done = true;
        }
        Json result = Json.obj().put("test", id).put("occurrence", starts);
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
                String xml = new StateWriter(access, s.limit).capture(id, starts, classes);
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
