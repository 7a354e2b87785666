package io.github.odrust.maven.fork;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts one test JVM and waits for it, with a timeout that kills the whole process tree (the JVM
 * and anything the tests started). While it runs, {@link Watcher#poll()} is called a few times a
 * second so the caller can stream the agent's events.
 */
public final class TestJvm {
    /** How to start a test JVM for one module. */
    public static final class Spec {
        public String java;
        public List<String> jvmArgs = new ArrayList<>();
        public File workingDirectory;
        public Map<String, String> environment;
        public List<String> removedEnvironment = new ArrayList<>();
        public int timeoutSeconds;

        /**
         * A copy that starts in {@code directory}, with {@code java.io.tmpdir} set to {@code tmp}
         * ahead of the other JVM arguments (an argLine that sets it still wins).
         */
        public Spec isolated(File directory, File tmp) {
            Spec s = withJvmArg("-Djava.io.tmpdir=" + tmp.getAbsolutePath());
            s.jvmArgs.add(0, s.jvmArgs.remove(s.jvmArgs.size() - 1));
            s.workingDirectory = directory;
            return s;
        }

        /** A copy with {@code arg} added after the other JVM arguments. */
        public Spec withJvmArg(String arg) {
            Spec s = new Spec();
            s.java = java;
            s.jvmArgs = new ArrayList<>(jvmArgs);
            s.jvmArgs.add(arg);
            s.workingDirectory = workingDirectory;
            s.environment = environment;
            s.removedEnvironment = removedEnvironment;
            s.timeoutSeconds = timeoutSeconds;
            return s;
        }
    }

    /** How a test JVM ended. */
    public static final class Exit {
        public final int exitCode;
        public final boolean timedOut;
        public final long millis;
        /** Processes the tests started that were still running when the JVM ended, killed then: "pid 12: sleep 1000". */
        public final List<String> leftovers;

        Exit(int exitCode, boolean timedOut, long millis, List<String> leftovers) {
            this.exitCode = exitCode;
            this.timedOut = timedOut;
            this.millis = millis;
            this.leftovers = leftovers;
        }
    }

    /** The first bytes of a JVM's output kept in its log. */
    public static final int LOG_HEAD_BYTES = 1 << 20;
    /** The last bytes kept after the cut, when the output is longer than head and tail together. */
    public static final int LOG_TAIL_BYTES = 1 << 20;

    /** Called while the JVM runs. */
    public interface Watcher {
        void poll() throws IOException;
    }

    private TestJvm() {}

    public static List<String> command(Spec spec, Path classpathJar, Path plan) {
        List<String> cmd = new ArrayList<>();
        cmd.add(spec.java);
        cmd.addAll(spec.jvmArgs);
        cmd.add("-cp");
        cmd.add(classpathJar.toAbsolutePath().toString());
        cmd.add("io.github.odrust.agent.Main");
        cmd.add(plan.toAbsolutePath().toString());
        return cmd;
    }

    /**
     * The command of a shared JVM (docs/isolation.md): it reads plan files from its standard input.
     * The agent jar is its {@code -javaagent} ({@code =serve}) unless a mode's already is: the JVM
     * reads and restores the JDK's HTTPS defaults between orders through it.
     */
    public static List<String> serveCommand(Spec spec, Path agentJar, Path classpathJar) {
        String agent = "-javaagent:" + agentJar.toAbsolutePath();
        boolean has = false;
        for (String arg : spec.jvmArgs) {
            has |= arg.equals(agent) || arg.startsWith(agent + "=");
        }
        List<String> cmd = command(has ? spec : spec.withJvmArg(agent + "=serve"), classpathJar, classpathJar);
        cmd.set(cmd.size() - 1, "--serve");
        return cmd;
    }

    public static Exit run(Spec spec, Path classpathJar, Path plan, Path log, Watcher watcher)
            throws IOException, InterruptedException {
        return watch(
                start(spec, command(spec, classpathJar, plan)),
                spec.timeoutSeconds,
                log,
                LOG_HEAD_BYTES,
                LOG_TAIL_BYTES,
                watcher);
    }

    /** Starts {@code command} as {@code spec} says (directory, environment), output and errors merged. */
    static Process start(Spec spec, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.directory(spec.workingDirectory);
        Map<String, String> env = pb.environment();
        if (spec.environment != null) {
            env.putAll(spec.environment);
        }
        for (String name : spec.removedEnvironment) {
            env.remove(name);
        }
        pb.redirectErrorStream(true);
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new IOException(
                    "could not start the test JVM '" + spec.java + "': " + e.getMessage()
                            + ". Check Surefire's <jvm> setting or the toolchain.",
                    e);
        }
        return process;
    }

    /**
     * Waits for {@code process} (its output copied to {@code log}, capped at the first
     * {@code head} and last {@code tail} bytes with a line saying what was cut), killing its whole
     * tree at the timeout; then kills what it started that outlived it.
     */
    static Exit watch(Process process, int timeoutSeconds, Path log, int head, int tail, Watcher watcher)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        CappedLog output = CappedLog.start(process.getInputStream(), log, head, tail);
        // The tests' own processes, seen while the JVM runs: one still alive when the JVM has
        // ended was left behind (its parent is init by then, so it is no longer a descendant).
        Map<Long, ProcessHandle> started = new LinkedHashMap<>();
        boolean timedOut = false;
        try {
            while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(h -> started.putIfAbsent(h.pid(), h));
                watcher.poll();
                if (System.nanoTime() > deadline) {
                    process.descendants().forEach(h -> started.putIfAbsent(h.pid(), h));
                    killTree(process);
                    timedOut = true;
                    break;
                }
            }
        } catch (InterruptedException e) {
            killTree(process);
            throw e;
        }
        List<String> leftovers = killLeftovers(started.values());
        output.finish();
        watcher.poll();
        return new Exit(process.exitValue(), timedOut, elapsed(start), leftovers);
    }

    /** Kills those of {@code seen} that are still alive; says which. */
    static List<String> killLeftovers(Iterable<ProcessHandle> seen) {
        List<String> killed = new ArrayList<>();
        for (ProcessHandle h : seen) {
            if (h.isAlive()) {
                String what = h.info().commandLine().orElse(h.info().command().orElse("?"));
                h.destroyForcibly();
                killed.add("pid " + h.pid() + ": " + what);
            }
        }
        return killed;
    }

    /** Kills the JVM and every process below it, children first, and waits for the JVM to go. */
    static void killTree(Process process) throws InterruptedException {
        List<ProcessHandle> descendants = new ArrayList<>();
        process.descendants().forEach(descendants::add);
        process.destroyForcibly();
        for (ProcessHandle h : descendants) {
            h.destroyForcibly();
        }
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private static long elapsed(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
