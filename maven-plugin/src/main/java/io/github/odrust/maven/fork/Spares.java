package io.github.odrust.maven.fork;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fresh test JVMs started ahead of need (docs/isolation.md, "Fresh JVMs started ahead"): when a
 * test JVM starts with the same command, directory and environment as the one before it, another
 * one is started right away with {@code Main --await}, and the next run of that kind takes it
 * instead of starting its own. A spare boots while the experiment before it runs and then waits,
 * before loading any class of the module, for the plan file's path on its standard input; its
 * clock counts from then. Nothing else differs from a JVM started at that moment: the same command
 * line, directory and environment, no test class loaded, the standard input an open pipe nobody
 * writes to once the path is read.
 *
 * <p>Spares left at the end of a goal are destroyed ({@link #close()}); a spare whose Maven ends
 * first reads the end of its input and exits.
 */
public final class Spares {
    private static final Object LOCK = new Object();
    private static boolean enabled;
    /** The key of the last JVM started without a spare, to start spares only for a repeated kind. */
    private static String last;

    private static final Map<String, Deque<Process>> WAITING = new HashMap<>();
    private static int taken;

    private Spares() {}

    /** Whether runs may start spares ({@code odrust.prestart}); off closes the ones waiting. */
    public static void enable(boolean on) {
        synchronized (LOCK) {
            enabled = on;
            last = null;
            taken = 0;
        }
        if (!on) {
            close();
        }
    }

    /** How many runs took a spare since {@link #enable}. */
    public static int taken() {
        synchronized (LOCK) {
            return taken;
        }
    }

    /**
     * A JVM for {@code command} (its last element the plan file) already started and given the
     * plan, or null to start one as usual; either way, when this kind of JVM repeats, a spare for
     * the next run is started.
     */
    static Process take(TestJvm.Spec spec, List<String> command) throws IOException {
        List<String> awaiting = awaiting(command);
        String key = key(spec, awaiting);
        Process spare = null;
        boolean prepare;
        synchronized (LOCK) {
            if (!enabled) {
                return null;
            }
            Deque<Process> queue = WAITING.get(key);
            while (queue != null && !queue.isEmpty() && spare == null) {
                Process p = queue.poll();
                if (p.isAlive()) {
                    spare = p;
                } else {
                    // It ended before it was needed (a JVM that cannot start): the run starts its
                    // own, whose output says why.
                    p.destroyForcibly();
                }
            }
            prepare = spare != null || key.equals(last);
            last = key;
            if (spare != null) {
                taken++;
            }
        }
        if (prepare) {
            Process next = TestJvm.start(spec, awaiting);
            synchronized (LOCK) {
                if (enabled) {
                    WAITING.computeIfAbsent(key, k -> new ArrayDeque<>()).add(next);
                    next = null;
                }
            }
            if (next != null) {
                next.destroyForcibly();
            }
        }
        if (spare != null) {
            OutputStream in = spare.getOutputStream();
            try {
                in.write((command.get(command.size() - 1) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                // It ended between the check and now: start one as usual.
                spare.destroyForcibly();
                return null;
            }
        }
        return spare;
    }

    /** Destroys the spares still waiting. */
    public static void close() {
        List<Process> all = new ArrayList<>();
        synchronized (LOCK) {
            WAITING.values().forEach(all::addAll);
            WAITING.clear();
            last = null;
        }
        for (Process p : all) {
            p.destroyForcibly();
        }
    }

    /** {@code command} with its plan file replaced by {@code --await}. */
    static List<String> awaiting(List<String> command) {
        List<String> c = new ArrayList<>(command);
        c.set(c.size() - 1, "--await");
        return c;
    }

    private static String key(TestJvm.Spec spec, List<String> command) {
        return command + "\u0000" + spec.workingDirectory + "\u0000" + spec.environment + "\u0000"
                + spec.removedEnvironment;
    }

    /** For tests: the spares waiting. */
    static int waiting() {
        synchronized (LOCK) {
            return WAITING.values().stream().mapToInt(Deque::size).sum();
        }
    }
}
