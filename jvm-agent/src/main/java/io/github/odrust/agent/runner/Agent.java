package io.github.odrust.agent.runner;

import io.github.odrust.agent.capture.Diagnosis;
import io.github.odrust.agent.format.PlanFile;
import java.io.File;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runner: reads a plan, writes events. {@link #run(Path)} never calls {@code System.exit}, so
 * tests can call it in-process; {@link Main} does.
 */
public final class Agent {
    /** Exit status for an agent failure (bad plan, class not found in discover mode, internal error). */
    public static final int AGENT_ERROR = 3;
    /** Exit status when the tests ran the JVM out of memory (the OutOfMemoryError reached the agent). */
    public static final int OUT_OF_MEMORY = 4;

    /** {@code t} or its first cause that is an OutOfMemoryError, else null. */
    static OutOfMemoryError outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return (OutOfMemoryError) c;
            }
        }
        return null;
    }

    private final PlanFile plan;
    private final EventWriter events;
    private final ClassLoader loader;
    private final Context ctx;
    private final Map<String, Framework> frameworks = new HashMap<>();
    private final Map<String, String> unavailable = new HashMap<>();

    /** Where the framework adapters (which use JUnit) are loaded from: the tests' loader when it is a fresh one. */
    private final ClassLoader adapters;

    private Agent(PlanFile plan, EventWriter events, ClassLoader loader, ClassLoader adapters) {
        this.plan = plan;
        this.events = events;
        this.loader = loader;
        this.adapters = adapters;
        this.ctx = new Context(events, plan, loader);
    }

    /** Runs the plan; returns 0 when {@code end} was written, 3 on an agent error. */
    public static int run(Path planFile) {
        return run(planFile, null);
    }

    /**
     * Runs the plan with the thread's context class loader as the tests' loader; with
     * {@code isolated} (a fresh loader of a shared JVM, which is the context loader), the JUnit
     * adapters are loaded from it too, so that they see the JUnit its tests see.
     */
    public static int run(Path planFile, ClassLoader isolated) {
        PlanFile plan;
        try {
            plan = PlanFile.read(planFile);
        } catch (PlanFile.BadPlanException | IOException | RuntimeException e) {
            String msg = "bad plan " + planFile + ": "
                    + (e instanceof PlanFile.BadPlanException ? e.getMessage() : e.toString());
            System.err.println("odrust-agent: " + msg);
            tryAgentErrorSomewhere(planFile, msg);
            return AGENT_ERROR;
        }
        for (Map.Entry<String, String> e : plan.sysprops.entrySet()) {
            System.setProperty(e.getKey(), e.getValue());
        }
        if (!plan.classpath.isEmpty()) {
            String cp = String.join(File.pathSeparator, plan.classpath);
            System.setProperty("java.class.path", cp);
            System.setProperty("surefire.test.class.path", cp);
        }
        EventWriter events;
        try {
            events = new EventWriter(Paths.get(plan.events));
        } catch (IOException | RuntimeException e) {
            System.err.println("odrust-agent: cannot open events file " + plan.events + ": " + e);
            return AGENT_ERROR;
        }
        Thread hook = new Thread(events::exitIfNotEnded, "odrust-agent-exit");
        Runtime.getRuntime().addShutdownHook(hook);
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ClassLoader.getSystemClassLoader();
        }
        Agent agent = new Agent(plan, events, loader, isolated != null ? isolated : Agent.class.getClassLoader());
        int status;
        try {
            agent.start();
            status = plan.mode.equals("discover") ? agent.discover() : agent.runSegments();
            if (status == 0 && !plan.mode.equals("discover")) {
                Diagnosis.runEnded();
            }
            if (status == 0) {
                events.end();
            }
        } catch (Throwable t) {
            OutOfMemoryError oom = outOfMemory(t);
            if (oom != null) {
                // JUnit rethrows an OutOfMemoryError from a test: it is the tests', not odrust's.
                System.err.println("odrust-agent: the test JVM ran out of memory: " + oom);
                t.printStackTrace();
                events.outOfMemory(String.valueOf(oom));
                status = OUT_OF_MEMORY;
            } else {
                System.err.println("odrust-agent: internal error");
                t.printStackTrace();
                agent.agentError("internal error: " + EventWriter.trace(t));
                status = AGENT_ERROR;
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook will run (and do nothing, end/agent-error was written)
            }
            events.close();
        }
        return status;
    }

    private void agentError(String message) {
        events.agentError(message);
    }

    private static void tryAgentErrorSomewhere(Path planFile, String msg) {
        try {
            for (String line : new String(Files.readAllBytes(planFile), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("events\t")) {
                    EventWriter w = new EventWriter(
                            Paths.get(PlanFile.unescape(line.substring(7).replace("\r", ""))));
                    w.write(Json.event("agent-error").put("message", msg));
                    w.close();
                    return;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // stderr already has it
        }
    }

    private void start() {
        events.write(Json.event("start")
                .put("pid", pid())
                .put("java_version", System.getProperty("java.version"))
                .put("junit4", junit4Version())
                .put("junit_platform", packageVersion("org.junit.platform.launcher.Launcher"))
                .put("junit_jupiter", packageVersion("org.junit.jupiter.api.Test"))
                .put("mode", plan.mode)
                .put("uptime_ms", EventWriter.uptimeMs()));
    }

    private static Long pid() {
        try {
            String name = ManagementFactory.getRuntimeMXBean().getName();
            int at = name.indexOf('@');
            return Long.parseLong(at > 0 ? name.substring(0, at) : name);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    private String junit4Version() {
        try {
            Class<?> v = Class.forName("junit.runner.Version", true, loader);
            return (String) v.getMethod("id").invoke(null);
        } catch (Throwable t) {
            return null;
        }
    }

    private String packageVersion(String className) {
        try {
            Class<?> c = Class.forName(className, false, loader);
            Package p = c.getPackage();
            return p == null
                    ? "unknown"
                    : (p.getImplementationVersion() == null ? "unknown" : p.getImplementationVersion());
        } catch (Throwable t) {
            return null;
        }
    }

    /** The framework implementation, or null when unavailable (reason in {@link #unavailable}). */
    private Framework framework(String name) {
        if (frameworks.containsKey(name)) {
            return frameworks.get(name);
        }
        Framework fw = null;
        String probe =
                name.equals("junit4") ? "org.junit.runner.Request" : "org.junit.platform.launcher.core.LauncherFactory";
        String impl = name.equals("junit4")
                ? "io.github.odrust.agent.runner.Junit4Support"
                : "io.github.odrust.agent.runner.junit5.Junit5Support";
        try {
            Class.forName(probe, false, loader);
            if (name.equals("junit5")) {
                try {
                    Class.forName("org.junit.jupiter.engine.JupiterTestEngine", false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    unavailable.put(
                            name,
                            "the JUnit Jupiter engine (org.junit.jupiter:junit-jupiter-engine) is not on the test classpath");
                    frameworks.put(name, null);
                    return null;
                }
            }
            try {
                fw = (Framework)
                        Class.forName(impl, true, adapters).getConstructor().newInstance();
                fw.init(ctx);
            } catch (Throwable t) {
                fw = null;
                unavailable.put(name, name + " support failed to start: " + t);
            }
        } catch (Throwable t) {
            unavailable.put(
                    name,
                    name.equals("junit4")
                            ? "JUnit 4 (junit:junit) is not on the test classpath"
                            : "the JUnit Platform launcher (org.junit.platform:junit-platform-launcher) is not on the test classpath");
        }
        frameworks.put(name, fw);
        return fw;
    }

    // ---------------------------------------------------------------- discover

    private int discover() throws Exception {
        for (String name : plan.candidates) {
            Class<?> cls;
            try {
                cls = Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                agentError("candidate class " + name + " not found on the test classpath");
                return AGENT_ERROR;
            } catch (LinkageError e) {
                events.warning(name, "cannot load class: " + e);
                continue;
            }
            if (cls.isInterface() || cls.isAnnotation() || cls.isEnum() || Modifier.isAbstract(cls.getModifiers())) {
                continue;
            }
            boolean claimed = false;
            if (plan.frameworkEnabled("junit5")) {
                Framework fw = framework("junit5");
                if (fw != null) {
                    claimed = fw.discover(cls);
                }
            }
            if (!claimed && plan.frameworkEnabled("junit4")) {
                Framework fw = framework("junit4");
                if (fw != null) {
                    claimed = fw.discover(cls);
                }
            }
            if (!claimed) {
                String other = otherFramework(cls);
                if (other != null) {
                    events.warning(name, other);
                }
            }
        }
        return 0;
    }

    /** A message when the class looks like a test of a framework odrust does not run here. */
    private String otherFramework(Class<?> cls) {
        try {
            for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
                if (hasAnnotationPrefix(c.getDeclaredAnnotations(), "org.testng.")) {
                    return "looks like a TestNG test: odrust runs only JUnit 4 and JUnit 5 (Jupiter) tests";
                }
                for (Method m : c.getDeclaredMethods()) {
                    Annotation[] as = m.getDeclaredAnnotations();
                    if (hasAnnotationPrefix(as, "org.testng.")) {
                        return "looks like a TestNG test: odrust runs only JUnit 4 and JUnit 5 (Jupiter) tests";
                    }
                    if (!plan.frameworkEnabled("junit5") && hasAnnotationPrefix(as, "org.junit.jupiter.")) {
                        return "has JUnit 5 (Jupiter) tests, but Surefire would not run JUnit 5 in this module";
                    }
                    if (!plan.frameworkEnabled("junit4") && hasAnnotationPrefix(as, "org.junit.Test")) {
                        return "has JUnit 4 tests, but Surefire would not run JUnit 4 in this module (no junit4 provider or vintage engine)";
                    }
                }
            }
        } catch (Throwable t) {
            // unloadable annotations: not our business
        }
        return null;
    }

    private static boolean hasAnnotationPrefix(Annotation[] as, String prefix) {
        for (Annotation a : as) {
            if (a.annotationType().getName().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- run

    private int runSegments() throws Exception {
        for (int i = 0; i < plan.segments.size(); i++) {
            PlanFile.Segment seg = plan.segments.get(i);
            Diagnosis.segmentStarting(seg.tests);
            events.segmentStarting(seg.className);
            Class<?> cls = null;
            String problem = null;
            try {
                cls = Class.forName(seg.className, false, loader);
            } catch (ClassNotFoundException e) {
                problem = "class " + seg.className + " not found on the test classpath";
            } catch (LinkageError e) {
                problem = "cannot load class " + seg.className + ": " + e;
            }
            Framework fw = null;
            if (problem == null) {
                fw = framework(seg.framework);
                if (fw == null) {
                    problem = unavailable.get(seg.framework);
                }
            }
            if (problem != null) {
                segmentEvent(events, i, 0, seg.className, seg.framework, seg.tests, null);
                for (String t : seg.tests) {
                    events.test(t, "error", 0, null, problem);
                }
                continue;
            }
            fw.runSegment(i, cls, seg.tests);
        }
        return 0;
    }

    /** The first index where two id lists differ (the shorter length when one is a prefix of the other). */
    public static int firstDifference(List<String> a, List<String> b) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            if (!a.get(i).equals(b.get(i))) {
                return i;
            }
        }
        return n;
    }

    /** Writes a {@code segment} event. {@code part} counts the parts of a split segment from 0. */
    public static void segmentEvent(
            EventWriter events, int index, int part, String cls, String framework, List<String> tests, String split) {
        events.segment(
                cls,
                Json.event("segment")
                        .put("index", index)
                        .put("part", part)
                        .put("class", cls)
                        .put("framework", framework)
                        .put("tests", tests)
                        .put("split", split));
    }
}
