package io.github.odrust.agent.shuffle.rt;

import java.util.Map;

/**
 * An item's place in the order a permutation starts from: values the same in every JVM first —
 * strings, boxed numbers and characters by their hash codes (not an {@code AtomicInteger}), enum constants and classes by
 * their names, a {@code java.beans} descriptor (whose hash code mixes in a class's identity
 * hash code) by its text, and (hash keys only, which the JDK hashed already) an object whose
 * hash code is not its identity hash code by it — then everything else by class name. For a
 * map entry, its key's. Nothing else of the module's code runs: a map's values and a
 * PriorityQueue's elements are never hashed here, and a key's {@code hashCode} that throws
 * puts it with the rest.
 */
final class Keyed implements Comparable<Keyed> {
    /** What a call's elements are, for the order its permutation starts from ({@link Keyed}). */
    enum Order {
        /** Reflection's members and {@code File.list}: by their texts. */
        NAMES,
        /** Hash keys (a HashSet's elements, a map's keys or entries): the JDK hashed them already. */
        KEYS,
        /** A map's values, a PriorityQueue's elements: hashed by nobody, so not by odrust either. */
        VALUES;

        static Order of(String api) {
            return api.indexOf("Values") >= 0 || api.startsWith("PriorityQueue") ? VALUES : KEYS;
        }
    }

    /** Whether a class of the JDK's own is a {@code java.beans} descriptor (a PropertyDescriptor). */
    /** Touches what the hot path uses, before it may run inside a JDK method (Shuffler.configure). */
    static void warm() {
        DESCRIPTOR.get(String.class);
    }

    private static final ClassValue<Boolean> DESCRIPTOR = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            if (type.getClassLoader() != null) {
                return false;
            }
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                if (c.getName().equals("java.beans.FeatureDescriptor")) {
                    return true;
                }
            }
            return false;
        }
    };

    final int position;
    final int rank;
    final int hash;
    final String type;
    /** The item's text (reflection's members, File.list, names), or null. */
    final String text;

    private Keyed(int position, int rank, int hash, String type, String text) {
        this.position = position;
        this.rank = rank;
        this.hash = hash;
        this.type = type;
        this.text = text;
    }

    static Keyed named(Object item, int position) {
        return new Keyed(position, 0, 0, "", String.valueOf(item));
    }

    static Keyed of(Object item, int position, boolean key) {
        try {
            Object o = item instanceof Map.Entry ? ((Map.Entry<?, ?>) item).getKey() : item;
            if (o == null) {
                return new Keyed(position, 0, 0, "", null);
            }
            if (o instanceof String) {
                return new Keyed(position, 0, o.hashCode(), "java.lang.String", (String) o);
            }
            if (o instanceof Enum) {
                Enum<?> e = (Enum<?>) o;
                String name = e.name();
                return new Keyed(
                        position, 0, name.hashCode(), e.getDeclaringClass().getName(), name);
            }
            if (o instanceof Class) {
                String name = ((Class<?>) o).getName();
                return new Keyed(position, 0, name.hashCode(), "java.lang.Class", name);
            }
            Class<?> c = o.getClass();
            boolean jdk = c.getClassLoader() == null;
            // boxed values; not java.util.concurrent's counters (numbers hashed by identity)
            if (jdk
                    && (o instanceof Number || o instanceof Boolean || o instanceof Character)
                    && !c.getName().startsWith("java.util.concurrent.")) {
                return new Keyed(position, 0, o.hashCode(), c.getName(), null);
            }
            if (DESCRIPTOR.get(c)) {
                String text = String.valueOf(o);
                return new Keyed(position, 0, text.hashCode(), c.getName(), text);
            }
            if (key) {
                int h = o.hashCode();
                if (h != System.identityHashCode(o)) {
                    return new Keyed(position, 0, h, c.getName(), null);
                }
            }
            return new Keyed(position, 1, 0, c.getName(), null);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable e) {
            // a key whose hashCode (or an entry whose getKey) throws: with the rest
            return new Keyed(position, 1, 0, "", null);
        }
    }

    /**
     * Sorts {@code keyed} (each at its own {@code position}, 0 to n-1) exactly as a stable
     * {@code Arrays.sort(keyed)} does, but by primitive keys first: rank, hash and position packed
     * in a long, so only items of equal rank and hash are compared as objects (by type and text,
     * stably). A map of a few thousand keys, which a module may iterate on every call (a cache it
     * cleans), is sorted several times faster so (docs/id-tests-real-projects.md, "Phase 1").
     */
    static void sort(Keyed[] keyed) {
        int n = keyed.length;
        if (n >= 1 << 30) {
            java.util.Arrays.sort(keyed);
            return;
        }
        // rank is 0 or 1 (bit 62), the hash's 32 bits in signed order (30-61), the position (0-29)
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            Keyed k = keyed[i];
            keys[i] = ((long) k.rank << 62) | ((k.hash ^ 0x80000000L) & 0xFFFFFFFFL) << 30 | k.position;
        }
        java.util.Arrays.sort(keys);
        Keyed[] byPosition = new Keyed[n];
        for (Keyed k : keyed) {
            byPosition[k.position] = k;
        }
        for (int i = 0; i < n; i++) {
            keyed[i] = byPosition[(int) (keys[i] & ((1 << 30) - 1))];
        }
        // items of equal rank and hash: by type and text, stably (their positions ascend already)
        int start = 0;
        for (int i = 1; i <= n; i++) {
            if (i == n || keys[i] >>> 30 != keys[start] >>> 30) {
                if (i - start > 1) {
                    java.util.Arrays.sort(keyed, start, i);
                }
                start = i;
            }
        }
    }

    @Override
    public int compareTo(Keyed o) {
        if (rank != o.rank) {
            return rank < o.rank ? -1 : 1;
        }
        if (hash != o.hash) {
            return hash < o.hash ? -1 : 1;
        }
        int byType = type.compareTo(o.type);
        if (byType != 0) {
            return byType;
        }
        if (text == null || o.text == null) {
            return text == o.text ? 0 : text == null ? -1 : 1;
        }
        return text.compareTo(o.text);
    }
}
