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
     * JDK-wide helpers (the common fork-join pool, reference handlers) are not counted.
     */
    static List<String> leaked(Set<Thread> before, ClassLoader loader) {
        long deadline = System.currentTimeMillis() + GRACE_MILLIS;
        List<Thread> left = new ArrayList<Thread>();
        for (Thread t : alive()) {
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
