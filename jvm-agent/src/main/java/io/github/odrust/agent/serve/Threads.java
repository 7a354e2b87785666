package io.github.odrust.agent.serve;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Threads an order left behind: started while it ran and still alive after a short grace. Those
 * that can still run retire the shared JVM. Idle pool workers (a thread pool's worker waiting for
 * its next task, an idle timer or fork-join worker) are kept, up to {@link #MAX_KEPT}, when every
 * thread the order left is one: only the order's code, which runs no more, could give them work.
 */
final class Threads {
    /** How long threads an order started get to end, or to become idle, by themselves. */
    static final long GRACE_MILLIS = 200;

    /** How long between two looks at the threads left: an idle one must not have moved between them. */
    private static final long LOOK_MILLIS = 5;

    /** The most idle threads earlier orders left that one shared JVM keeps. */
    static final int MAX_KEPT = 64;

    /** Idle threads earlier orders left, kept alive in this JVM, with how often each had waited then. */
    private static final Map<Thread, Long> KEPT = new LinkedHashMap<Thread, Long>();

    /** The JDK's queues a pool worker takes (or polls, with its keep-alive time) its next task from. */
    private static final Set<String> QUEUES = new HashSet<String>(Arrays.asList(
            "java.util.concurrent.LinkedBlockingQueue",
            "java.util.concurrent.LinkedBlockingDeque",
            "java.util.concurrent.ArrayBlockingQueue",
            "java.util.concurrent.SynchronousQueue",
            "java.util.concurrent.LinkedTransferQueue",
            "java.util.concurrent.PriorityBlockingQueue"));

    /** A scheduled pool's queue: idle only while it holds no task (an untimed wait). */
    private static final String DELAYED = "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue";

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private Threads() {}

    /** What one order left. */
    static final class Left {
        /** Threads that can still run (the JVM retires), as {@code name (daemon)}. */
        final List<String> running = new ArrayList<String>();
        /** Idle pool workers, kept. */
        final List<String> idle = new ArrayList<String>();
        /** Why the idle ones cannot be kept after all (the JVM retires), or null. */
        String problem;
    }

    static Set<Thread> alive() {
        return new HashSet<Thread>(Thread.getAllStackTraces().keySet());
    }

    /**
     * What the order left: the threads alive now that were not in {@code before} and belong to
     * the order (non-daemon, or created by its code: their class or their context class loader is
     * {@code loader}), split into those that can still run and idle pool workers. JDK-wide helpers
     * (the common fork-join pool, reference handlers, the process reaper) are not counted, and not
     * waited for. The grace ends early once every thread left ended or is idle, and stayed so
     * between two looks.
     */
    static Left left(Set<Thread> before, ClassLoader loader) {
        long deadline = System.currentTimeMillis() + GRACE_MILLIS;
        List<Thread> started = new ArrayList<Thread>();
        for (Thread t : alive()) {
            if (jdkHelper(t)) {
                // It outlives the order: it must not keep the order's loader (and its classes).
                if (t.getContextClassLoader() == loader) {
                    t.setContextClassLoader(null);
                }
                continue;
            }
            if (!before.contains(t) && t != Thread.currentThread() && belongs(t, loader)) {
                started.add(t);
            }
        }
        Map<Thread, ThreadInfo> previous = null;
        Map<Thread, ThreadInfo> now = look(started);
        while (!now.isEmpty() && !(previous != null && steady(previous, now))) {
            long wait = deadline - System.currentTimeMillis();
            if (wait <= 0) {
                break;
            }
            try {
                Thread.sleep(Math.min(wait, LOOK_MILLIS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            previous = now;
            now = look(started);
        }
        Left result = new Left();
        Map<Thread, Long> idle = new LinkedHashMap<Thread, Long>();
        for (Map.Entry<Thread, ThreadInfo> e : now.entrySet()) {
            ThreadInfo was = previous == null ? null : previous.get(e.getKey());
            if (was != null
                    && idle(e.getValue())
                    && was.getWaitedCount() == e.getValue().getWaitedCount()) {
                idle.put(e.getKey(), e.getValue().getWaitedCount());
            } else {
                result.running.add(name(e.getKey()));
            }
        }
        if (!result.running.isEmpty()) {
            // The JVM retires: every thread the order left is named, as before.
            for (Thread t : idle.keySet()) {
                result.running.add(name(t));
            }
            Collections.sort(result.running);
            return result;
        }
        for (Thread t : idle.keySet()) {
            result.idle.add(name(t));
        }
        Collections.sort(result.idle);
        List<String> woke = woke();
        if (!woke.isEmpty()) {
            result.problem = "an idle thread an earlier order left ran again (" + String.join(", ", woke) + ")";
        } else if (KEPT.size() + idle.size() > MAX_KEPT) {
            result.problem = (KEPT.size() + idle.size()) + " idle threads that orders left are alive (more than "
                    + MAX_KEPT + ")";
        } else {
            KEPT.putAll(idle);
        }
        return result;
    }

    /** The kept threads that are no longer idle, or waited again since they were kept; forgets ended ones. */
    private static List<String> woke() {
        List<String> woke = new ArrayList<String>();
        Map<Thread, ThreadInfo> now = look(KEPT.keySet());
        for (Iterator<Map.Entry<Thread, Long>> i = KEPT.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<Thread, Long> e = i.next();
            ThreadInfo info = now.get(e.getKey());
            if (info == null) {
                i.remove();
            } else if (!idle(info) || info.getWaitedCount() != e.getValue()) {
                woke.add(name(e.getKey()));
            }
        }
        Collections.sort(woke);
        return woke;
    }

    /** Each live thread of {@code threads} with its state, stack and locks, all taken at one moment. */
    private static Map<Thread, ThreadInfo> look(Iterable<Thread> threads) {
        List<Thread> live = new ArrayList<Thread>();
        for (Thread t : threads) {
            if (t.isAlive()) {
                live.add(t);
            }
        }
        long[] ids = new long[live.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = live.get(i).getId();
        }
        ThreadInfo[] infos = ids.length == 0 ? new ThreadInfo[0] : MX.getThreadInfo(ids, true, true);
        Map<Thread, ThreadInfo> map = new HashMap<Thread, ThreadInfo>();
        for (int i = 0; i < infos.length; i++) {
            if (infos[i] != null) {
                map.put(live.get(i), infos[i]);
            }
        }
        return map;
    }

    /** Whether every thread of {@code now} is idle, and was at the look before, having waited no more since. */
    private static boolean steady(Map<Thread, ThreadInfo> previous, Map<Thread, ThreadInfo> now) {
        for (Map.Entry<Thread, ThreadInfo> e : now.entrySet()) {
            ThreadInfo was = previous.get(e.getKey());
            if (was == null
                    || !idle(e.getValue())
                    || was.getWaitedCount() != e.getValue().getWaitedCount()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code info} is of an idle pool worker, holding no lock. (Whether it moved is told by
     * its waited count, which HotSpot raises at every park and wait.)
     */
    static boolean idle(ThreadInfo info) {
        return info.getLockedMonitors().length == 0
                && info.getLockedSynchronizers().length == 0
                && idle(info.getThreadState(), info.getStackTrace());
    }

    /**
     * Whether a thread in {@code state} with {@code stack} is an idle pool worker, which runs
     * again only when given a task, or ends: a {@code ThreadPoolExecutor}'s worker taking its
     * next task from one of the JDK's queues (or polling it with its keep-alive time), or from a
     * scheduled pool's queue with no task in it (an untimed wait); a fork-join pool's worker
     * waiting for work; a {@code java.util.Timer}'s thread with no task (an untimed wait).
     * Anything else (a sleep, a timed wait, a wait for a latch, a future, a process or a collected
     * object, a scheduled task to run) can run by itself, or at the word of what odrust does not
     * look at.
     */
    static boolean idle(Thread.State state, StackTraceElement[] stack) {
        if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (int i = 0; i < stack.length; i++) {
            String cls = stack[i].getClassName();
            String method = stack[i].getMethodName();
            if (cls.equals("java.util.concurrent.ThreadPoolExecutor") && method.equals("getTask")) {
                if (i == 0) {
                    return false;
                }
                String queue = stack[i - 1].getClassName();
                String call = stack[i - 1].getMethodName();
                if (queue.equals(DELAYED)) {
                    return call.equals("take") && state == Thread.State.WAITING;
                }
                return QUEUES.contains(queue) && (call.equals("take") || call.equals("poll"));
            }
            if (cls.equals("java.util.concurrent.ForkJoinPool") && method.equals("awaitWork")) {
                return true;
            }
            if (cls.equals("java.util.TimerThread") && method.equals("mainLoop")) {
                return state == Thread.State.WAITING;
            }
        }
        return false;
    }

    private static String name(Thread t) {
        return t.getName() + (t.isDaemon() ? " (daemon)" : "");
    }

    /**
     * The JDK's own pooled daemon threads that a test's call starts but the JDK keeps for every
     * later caller. On JDK 17 the {@code process reaper}: the first {@code ProcessBuilder.start()}
     * makes it, in the system thread group, with the test's context class loader, and it idles up
     * to a minute. Counted as the order's, it would retire a shared JVM after every order that runs
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
                && t.getName().equals("process reaper");
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
