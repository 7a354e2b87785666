package io.github.odrust.agent.record;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A growable, thread-safe set of small ints. {@link #set} costs two volatile reads when the bit is
 * already set (the common case: a test reads the same field again and again).
 */
final class Bits {
    private volatile AtomicLongArray words;

    Bits(int capacity) {
        words = new AtomicLongArray(Math.max(1, (capacity + 63) >>> 6));
    }

    void set(int id) {
        int w = id >>> 6;
        long mask = 1L << id;
        AtomicLongArray a = words;
        if (w < a.length() && (a.get(w) & mask) != 0) {
            return; // already set: whoever set it also carried it over any concurrent grow
        }
        for (; ; ) {
            if (w >= a.length()) {
                a = grow(w);
            }
            long old = a.get(w);
            while ((old & mask) == 0 && !a.compareAndSet(w, old, old | mask)) {
                old = a.get(w);
            }
            // a concurrent grow may have copied the array before our bit was set: set it again there
            AtomicLongArray now = words;
            if (now == a) {
                return;
            }
            a = now;
        }
    }

    boolean has(int id) {
        int w = id >>> 6;
        AtomicLongArray a = words;
        return w < a.length() && (a.get(w) & (1L << id)) != 0;
    }

    private synchronized AtomicLongArray grow(int w) {
        AtomicLongArray a = words;
        if (w < a.length()) {
            return a;
        }
        AtomicLongArray b = new AtomicLongArray(Math.max(w + 1, a.length() * 2));
        for (int i = 0; i < a.length(); i++) {
            b.set(i, a.get(i));
        }
        words = b;
        return b;
    }

    boolean isEmpty() {
        AtomicLongArray a = words;
        for (int i = 0; i < a.length(); i++) {
            if (a.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The members, ascending. */
    int[] members() {
        AtomicLongArray a = words;
        int n = 0;
        for (int i = 0; i < a.length(); i++) {
            n += Long.bitCount(a.get(i));
        }
        int[] out = new int[n];
        int k = 0;
        for (int i = 0; i < a.length() && k < n; i++) {
            long v = a.get(i);
            while (v != 0 && k < n) {
                int b = Long.numberOfTrailingZeros(v);
                out[k++] = (i << 6) + b;
                v &= v - 1;
            }
        }
        return k == n ? out : java.util.Arrays.copyOf(out, k);
    }
}
