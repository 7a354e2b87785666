package io.github.odrust.agent.serve;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory a shared JVM still holds once an order ended. Each order's classes are in its own class
 * loader, freed with it; but a JDK-wide cache, a logging handler or a thread pool that keeps one
 * object of the order keeps all its classes. Orders after it then run out of metaspace (on
 * dubbo-common an order failed with {@code OutOfMemoryError: Metaspace} after 73 orders of one
 * JVM under {@code -XX:MaxMetaspaceSize=256m}), an outcome no fresh JVM would give. So when a
 * pool with a limit is more than {@link #FULL} full after an order, even after a garbage
 * collection, the JVM runs no more orders.
 */
final class Memory {
    /** The share of a pool's limit past which a shared JVM retires. */
    static final double FULL = 0.6;

    /** A memory pool's state: name, bytes in use, limit (0 or less: none). */
    static final class Pool {
        final String name;
        final long used;
        final long max;

        Pool(String name, long used, long max) {
            this.name = name;
            this.used = used;
            this.max = max;
        }
    }

    private Memory() {}

    /**
     * Why the JVM should run no more orders (empty: it may): each pool more than {@link #FULL}
     * full, checked again after a garbage collection when the first look finds one (under
     * {@code -XX:+DisableExplicitGC} the garbage still counts: the JVM retires early).
     */
    static List<String> nearlyFull() {
        if (over(pools(), SHARE).isEmpty()) {
            return new ArrayList<String>();
        }
        System.gc();
        return over(pools(), SHARE);
    }

    /** {@link #FULL}, or {@code odrust.serve.full} (a share in (0, 1], for tests). */
    private static final double SHARE = share(System.getProperty("odrust.serve.full"));

    static double share(String configured) {
        if (configured == null) {
            return FULL;
        }
        try {
            double share = Double.parseDouble(configured);
            if (share > 0 && share <= 1) {
                return share;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        System.err.println(
                "odrust-agent: odrust.serve.full=" + configured + " is not a share in (0, 1]; using " + FULL);
        return FULL;
    }

    /** The pools of {@code pools} more than {@code full} of their limit, said for a person. */
    static List<String> over(List<Pool> pools, double full) {
        List<String> out = new ArrayList<String>();
        for (Pool p : pools) {
            if (p.max > 0 && p.used > full * p.max) {
                out.add("the shared JVM's " + p.name + " is " + mb(p.used) + " of its " + mb(p.max)
                        + " MB after the order (classes or objects of earlier orders are still held)");
            }
        }
        return out;
    }

    /**
     * The pools whose filling means memory held across orders: the class metadata pools, and the
     * old (or only) heap pool as its last collection left it. Not the young pools (eden,
     * survivor): they fill and empty by the collector's design.
     */
    private static List<Pool> pools() {
        List<Pool> out = new ArrayList<Pool>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (!pool.isValid()) {
                continue;
            }
            MemoryUsage usage;
            String name = pool.getName();
            if (pool.getType() == MemoryType.HEAP) {
                if (name.contains("Eden") || name.contains("Survivor")) {
                    // a young pool: full or empty by the collector's design, whatever is held
                    continue;
                }
                usage = pool.getCollectionUsage();
            } else if (name.equals("Metaspace") || name.equals("Compressed Class Space")) {
                usage = pool.getUsage();
            } else {
                continue;
            }
            if (usage != null) {
                out.add(new Pool(name, usage.getUsed(), usage.getMax()));
            }
        }
        return out;
    }

    private static long mb(long bytes) {
        return Math.round(bytes / (1024.0 * 1024.0));
    }
}
