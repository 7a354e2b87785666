package io.github.odrust.maven.fork;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test JVM that runs order after order ({@code -Dodrust.isolation=classloader}, docs/isolation.md):
 * the agent's {@code Main --serve} reads plan files from its standard input and runs each in a
 * fresh class loader, restoring the JDK state tests touch; {@code <events>.done} says when a plan
 * is done, with the threads it left running and what could not be restored. After such an order,
 * or when the JVM ended, it is {@linkplain #usable() retired}: the next order needs a new one.
 */
public final class SharedJvm implements AutoCloseable {
    /**
     * Orders one shared JVM runs before it is retired: class loaders that something JVM-wide keeps
     * alive (a registered JDBC driver, a JMX bean) would otherwise fill its metaspace.
     */
    public static final int MAX_ORDERS = 100;

    private final Process process;
    private final OutputStream control;
    private final CappedLog output;
    private final Path log;
    private String retired;
    private int served;
    private List<String> notRestored = new ArrayList<>();

    private SharedJvm(Process process, Path log) {
        this.process = process;
        this.control = process.getOutputStream();
        this.log = log;
        this.output = CappedLog.start(process.getInputStream(), log, TestJvm.LOG_HEAD_BYTES, TestJvm.LOG_TAIL_BYTES);
    }

    /** Starts a shared JVM as {@code spec} says, with odrust's agent jar, its output in {@code log}. */
    public static SharedJvm start(TestJvm.Spec spec, java.io.File agentJar, Path classpathJar, Path log)
            throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        return new SharedJvm(TestJvm.start(spec, TestJvm.serveCommand(spec, agentJar.toPath(), classpathJar)), log);
    }

    /** What one order did in this JVM. */
    public static final class Served {
        public final TestJvm.Exit exit;
        /** Whether the agent finished the plan ({@code .done} written). */
        public final boolean done;

        public final List<String> leakedThreads;
        public final List<String> notRestored;

        Served(TestJvm.Exit exit, boolean done, List<String> leakedThreads, List<String> notRestored) {
            this.exit = exit;
            this.done = done;
            this.leakedThreads = leakedThreads;
            this.notRestored = notRestored;
        }
    }

    /** Whether it may run another order. */
    public boolean usable() {
        return retired == null && process.isAlive();
    }

    /** Runs no more orders, for {@code why} (its caller saw it cannot: out of memory, say). */
    public void retire(String why) {
        if (retired == null) {
            retired = why;
        }
    }

    /** Why it may not run another order, or null. */
    public String retired() {
        return retired != null ? retired : process.isAlive() ? null : "it ended";
    }

    public Path log() {
        return log;
    }

    /** What the last order left that a shared JVM cannot undo (a JVM-wide factory, a security manager). */
    public List<String> notRestored() {
        return notRestored;
    }

    /** Orders it ran. */
    public int served() {
        return served;
    }

    /**
     * Runs {@code plan} (whose events go to {@code events}) and waits for it, calling
     * {@code watcher} as it goes; at the timeout the JVM and its children are killed.
     */
    public Served run(Path plan, Path events, int timeoutSeconds, TestJvm.Watcher watcher)
            throws IOException, InterruptedException {
        if (!usable()) {
            throw new IllegalStateException("the shared JVM cannot run another order: " + retired());
        }
        served++;
        Path done = events.resolveSibling(events.getFileName() + ".done");
        Files.deleteIfExists(done);
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        try {
            control.write((plan.toAbsolutePath() + "\n").getBytes(StandardCharsets.UTF_8));
            control.flush();
        } catch (IOException e) {
            // It ended since it was last asked (its standard input is closed): nothing ran.
            retired = "it ended before the order (" + e.getMessage() + ")";
            return new Served(
                    new TestJvm.Exit(process.isAlive() ? 0 : process.exitValue(), false, 0, new ArrayList<>()),
                    false,
                    new ArrayList<>(),
                    new ArrayList<>());
        }
        boolean timedOut = false;
        long nextPoll = start;
        try {
            while (!Files.exists(done) && process.isAlive()) {
                if (System.nanoTime() >= nextPoll) {
                    watcher.poll();
                    nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                }
                if (System.nanoTime() > deadline) {
                    TestJvm.killTree(process);
                    timedOut = true;
                    break;
                }
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            TestJvm.killTree(process);
            throw e;
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        List<String> leaked = new ArrayList<>();
        List<String> notRestored = new ArrayList<>();
        boolean finished = Files.exists(done);
        if (finished) {
            JsonObject d = JsonParser.parseString(new String(Files.readAllBytes(done), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            strings(d.get("leaked_threads"), leaked);
            strings(d.get("not_restored"), notRestored);
        } else {
            process.waitFor(10, TimeUnit.SECONDS);
            output.finish();
        }
        watcher.poll();
        this.notRestored = notRestored;
        if (!leaked.isEmpty()) {
            retired = "an order left threads running: " + String.join(", ", leaked);
        } else if (!notRestored.isEmpty()) {
            retired = String.join("; ", notRestored);
        } else if (served >= MAX_ORDERS) {
            retired = "it ran " + served + " orders, the most one shared JVM runs";
        }
        int exitCode = process.isAlive() ? 0 : process.exitValue();
        return new Served(
                new TestJvm.Exit(exitCode, timedOut, millis, new ArrayList<>()), finished, leaked, notRestored);
    }

    private static void strings(JsonElement e, List<String> into) {
        if (e != null && e.isJsonArray()) {
            JsonArray a = e.getAsJsonArray();
            a.forEach(x -> into.add(x.getAsString()));
        }
    }

    /** Ends the JVM: standard input closed, then killed if it does not end in 10 s. */
    @Override
    public void close() throws IOException {
        try {
            control.close();
        } catch (IOException e) {
            // it ended already
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                TestJvm.killTree(process);
            }
            output.finish();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
