package io.github.odrust.agent.serve;

import io.github.odrust.agent.format.PlanFile;
import io.github.odrust.agent.runner.Agent;
import io.github.odrust.agent.runner.EventWriter;
import io.github.odrust.agent.runner.Json;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;

/**
 * {@code java -javaagent:<agent jar>=serve -cp <classpath jar> io.github.odrust.agent.Main --serve}
 * (or the agent with a mode's options): reads plan file paths from
 * standard input, one per line, and runs each plan as {@link Agent#run} does in a fresh JVM, but
 * in a fresh order {@link IsolatingLoader} (below the framework loader the plans share),
 * restoring the {@link JdkState} afterwards. When a plan is done, writes {@code <events>.done}
 * (docs/protocol.md, "Shared JVM"): the runner's status, the threads the order left running, the
 * idle pool workers it left (kept) and what could not be restored; the plugin then sends the next
 * plan, or closes standard input to end the JVM. Tests get an empty standard input.
 */
public final class Server {
    private Server() {}

    /**
     * The JVM's {@code -javaagent} (odrust's own, started with {@code =serve} or a mode's options):
     * kept to open what the JDK state needs ({@link LazyVault}) once serving starts.
     */
    public static void instrumentation(java.lang.instrument.Instrumentation inst) {
        LazyVault.instrumentation(inst);
        Server.inst = inst;
    }

    private static volatile java.lang.instrument.Instrumentation inst;

    /**
     * Whether {@code java.sql.DriverManager} was loaded in this JVM (so it found its drivers
     * already, with an earlier order's loader): the classes the loader of {@code java.sql} loaded,
     * as the agent sees them; false without the agent.
     */
    static boolean driverManagerLoaded() {
        // the platform loader defines java.sql; on Java 8 the boot loader does
        return loaded(
                "java.sql.DriverManager",
                System.getProperty("java.specification.version", "").startsWith("1.")
                        ? null
                        : ClassLoader.getSystemClassLoader().getParent(),
                false);
    }

    /** Once true, true for the JVM's life. */
    private static volatile boolean loggingStarted;

    /**
     * Whether {@code java.util.logging} has started in this JVM (its log manager made its root
     * logger, after reading its configuration): whether the boot loader loaded that logger's
     * class, as the agent sees it; true without the agent, which cannot tell (capturing the state
     * then starts it).
     */
    static boolean loggingStarted() {
        if (!loggingStarted) {
            loggingStarted = loaded("java.util.logging.LogManager$RootLogger", null, true);
        }
        return loggingStarted;
    }

    /**
     * Whether {@code definer} (null: the boot loader) loaded the class {@code name}, as the agent
     * sees it; {@code unknown} without the agent.
     */
    private static boolean loaded(String name, ClassLoader definer, boolean unknown) {
        java.lang.instrument.Instrumentation i = inst;
        if (i == null) {
            return unknown;
        }
        try {
            for (Class<?> c : i.getInitiatedClasses(definer)) {
                if (c.getName().equals(name)) {
                    return true;
                }
            }
        } catch (Throwable t) {
            return unknown;
        }
        return false;
    }

    /**
     * Calls {@link JdbcDrivers}'s {@code method} as a class of the order's {@code loader} does;
     * problems are printed, the order goes on as it would have without it.
     */
    private static void jdbc(IsolatingLoader loader, String method, String done) {
        try {
            Class<?> drivers = loader.defineOwn(JdbcDrivers.class);
            if (drivers != null) {
                drivers.getMethod(method, ClassLoader.class).invoke(null, loader);
            }
        } catch (Throwable t) {
            System.err.println("odrust-agent: the order's JDBC drivers could not be " + done + " (" + t + ")");
        }
    }

    /** Serves plans until standard input ends; returns the exit status. */
    public static int serve() {
        String closed = LazyVault.open();
        if (closed != null) {
            System.err.println("odrust-agent: " + closed
                    + "; the default time zone and HTTPS socket factory are read through their getters, which make"
                    + " them, between orders");
        }
        BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.setIn(new ByteArrayInputStream(new byte[0]));
        ClassLoader runner = Server.class.getClassLoader();
        Frameworks frameworks = new Frameworks(runner);
        while (true) {
            String line;
            try {
                line = control.readLine();
            } catch (IOException e) {
                System.err.println("odrust-agent: cannot read the next plan: " + e);
                return Agent.AGENT_ERROR;
            }
            if (line == null || line.trim().isEmpty()) {
                return 0;
            }
            serveOne(Paths.get(line.trim()), runner, frameworks);
        }
    }

    /** The framework loader, kept while the plans' framework jars stay the same. */
    static final class Frameworks {
        private final ClassLoader runner;
        private List<String> entries;
        private IsolatingLoader loader;

        Frameworks(ClassLoader runner) {
            this.runner = runner;
        }

        IsolatingLoader of(List<String> classpath) {
            List<String> wanted = IsolatingLoader.frameworkEntries(classpath);
            if (loader == null || !wanted.equals(entries)) {
                entries = wanted;
                loader = IsolatingLoader.framework(classpath, runner);
            }
            return loader;
        }
    }

    /** Runs one plan in a fresh class loader; writes its {@code .done} file. */
    static void serveOne(Path planFile, ClassLoader runner, Frameworks frameworks) {
        JdkState state = JdkState.capture();
        Set<Thread> before = Threads.alive();
        Long origin = EventWriter.uptimeMs();
        EventWriter.clockOrigin(origin == null ? 0 : origin);
        PlanFile plan;
        try {
            plan = PlanFile.read(planFile);
        } catch (PlanFile.BadPlanException | IOException | RuntimeException e) {
            // The runner reports a bad plan in its events; nothing else to serve.
            int status = Agent.run(planFile);
            EventWriter.clockOrigin(0);
            done(null, status, new Threads.Left(), state.restore());
            return;
        }
        IsolatingLoader loader = IsolatingLoader.order(plan.classpath, frameworks.of(plan.classpath), runner);
        Thread.currentThread().setContextClassLoader(loader);
        if (driverManagerLoaded()) {
            // an earlier order used DriverManager: it does not look for this order's drivers
            jdbc(loader, "register", "registered");
        }
        if (plan.shuffle != null) {
            String problem = io.github.odrust.agent.shuffle.ShuffleAgent.beginOrder(plan.shuffle);
            if (problem != null) {
                System.err.println("odrust-agent: " + problem);
            }
        }
        int status;
        try {
            status = Agent.run(planFile, loader);
        } finally {
            if (plan.shuffle != null) {
                io.github.odrust.agent.shuffle.ShuffleAgent.endOrder();
            }
        }
        // Threads left behind get their grace before the JDK state is put back: one that ends
        // in it may still change that state.
        Threads.Left left = Threads.left(before, loader);
        if (driverManagerLoaded()) {
            jdbc(loader, "release", "deregistered");
        }
        List<String> notRestored = state.restore();
        if (left.problem != null) {
            notRestored.add(left.problem);
        }
        try {
            loader.close();
        } catch (IOException e) {
            // its jars stay open until the JVM ends
        }
        // This thread holds the order's loader no more; what memory still holds after a
        // collection is held JVM-wide. Not checked when the JVM retires anyway.
        Thread.currentThread().setContextClassLoader(runner);
        loader = null;
        if (left.running.isEmpty() && notRestored.isEmpty()) {
            notRestored.addAll(Memory.nearlyFull());
        }
        EventWriter.clockOrigin(0);
        done(plan.events, status, left, notRestored);
    }

    private static void done(String events, int status, Threads.Left left, List<String> notRestored) {
        if (events == null) {
            return;
        }
        Path file = Paths.get(events + ".done");
        Path tmp = Paths.get(events + ".done.tmp");
        String text = Json.obj()
                        .put("status", status)
                        .put("leaked_threads", left.running)
                        .put("idle_threads", left.idle)
                        .put("not_restored", notRestored)
                + "\n";
        try {
            Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("odrust-agent: cannot write " + file + ": " + e);
        }
    }
}
