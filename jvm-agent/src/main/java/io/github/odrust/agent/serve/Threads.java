package io.github.odrust.agent.serve;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Threads an order left running: started while it ran and still alive after a short grace. */
final class Threads {
    /** How long threads an order started get to end by themselves. */
    static final long GRACE_MILLIS = 200;

    private Threads() {}

    static Set<Thread> alive() {
        return new HashSet<Thread>(Thread.getAllStackTraces().keySet());
    }

    /**
     * The threads alive now that were not in {@code before} and belong to the order: non-daemon,
     * or created by its code (their class or their context class loader is {@code loader}).
     * JDK-wide helpers (the common fork-join pool, reference handlers, the process reaper) are not
     * counted, and not waited for.
     */
    static List<String> leaked(Set<Thread> before, ClassLoader loader) {
        long deadline = System.currentTimeMillis() + GRACE_MILLIS;
        List<Thread> left = new ArrayList<Thread>();
        for (Thread t : alive()) {
            if (jdkHelper(t)) {
                // It outlives the order: it must not keep the order's loader (and its classes).
                if (t.getContextClassLoader() == loader) {
                    t.setContextClassLoader(null);
                }
                continue;
            }
            if (!before.contains(t) && t != Thread.currentThread() && belongs(t, loader)) {
                left.add(t);
            }
        }
        List<String> names = new ArrayList<String>();
        for (Thread t : left) {
            long wait = deadline - System.currentTimeMillis();
            if (wait > 0) {
                try {
                    t.join(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (t.isAlive()) {
                names.add(t.getName() + (t.isDaemon() ? " (daemon)" : ""));
            }
        }
        Collections.sort(names);
        return names;
    }

    /**
     * The JDK's own pooled daemon threads that a test's call starts but the JDK keeps for every
     * later caller: on JDK 17 the {@code process reaper} (the first {@code ProcessBuilder.start()}
     * makes it, in the system thread group, with the test's context class loader; it idles up to
     * a minute). Counted as the order's, it would retire a shared JVM after every order that runs
     * a process, and make each such order wait out the grace. Only a {@code java.lang} thread of
     * the root group by that name: a thread a test makes is of its own group and class. (From JDK
     * 19 on the reaper is an {@code InnocuousThread} of its own group with no context class
     * loader: it never belonged to an order there.)
     */
    static boolean jdkHelper(Thread t) {
        ThreadGroup group = t.getThreadGroup();
        return t.isDaemon()
                && group != null
                && group.getParent() == null
                && t.getClass().getClassLoader() == null
                && JDK_HELPERS.contains(t.getName());
    }

    private static final Set<String> JDK_HELPERS = Collections.singleton("process reaper");

    private static boolean belongs(Thread t, ClassLoader loader) {
        if (!t.isDaemon()) {
            return true;
        }
        ClassLoader ccl;
        try {
            ccl = t.getContextClassLoader();
        } catch (SecurityException e) {
            ccl = null;
        }
        return ccl == loader || t.getClass().getClassLoader() == loader;
    }
}
