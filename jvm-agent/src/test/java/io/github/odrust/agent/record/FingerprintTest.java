package io.github.odrust.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/** The content hash the mutable-read rule compares (end to end in RecordIT). */
class FingerprintTest {
    static final long UNKNOWN = Fingerprint.UNKNOWN;

    static long fp(Object o) {
        long h = Fingerprint.of(o);
        return h;
    }

    static final class Point {
        int x;
        long y;
        double z;
        String label;
        Point next;

        Point(int x, String label) {
            this.x = x;
            this.label = label;
        }
    }

    static class Base {
        int inherited;
    }

    static final class Derived extends Base {
        boolean flag;
    }

    @Test
    void valuesHashByContentNotIdentity() {
        assertEquals(fp(null), fp(null));
        assertEquals(fp(new String("abc")), fp("abc"));
        assertNotEquals(fp("abc"), fp("abd"));
        assertEquals(fp(Integer.valueOf(1000)), fp(Integer.valueOf(1000)));
        assertNotEquals(fp(1), fp(1L)); // the class is part of it
        assertNotEquals(fp(1.0), fp(2.0));
        assertEquals(fp(java.util.concurrent.TimeUnit.SECONDS), fp(java.util.concurrent.TimeUnit.SECONDS));
        assertNotEquals(fp(java.util.concurrent.TimeUnit.SECONDS), fp(java.util.concurrent.TimeUnit.DAYS));
        assertEquals(fp(String.class), fp(String.class));
        assertEquals(fp(new java.math.BigDecimal("1.50")), fp(new java.math.BigDecimal("1.50")));
        assertNotEquals(UNKNOWN, fp(null));
        assertNotEquals(UNKNOWN, fp("x"));
    }

    @Test
    void projectObjectsHashTheirFieldsUpTheHierarchy() {
        Point a = new Point(1, "a");
        Point b = new Point(1, "a");
        assertEquals(fp(a), fp(b));
        b.y = 2;
        assertNotEquals(fp(a), fp(b));
        b.y = 0;
        b.z = -0.0;
        assertNotEquals(fp(a), fp(b));
        b.z = 0;
        b.next = new Point(3, null);
        long before = fp(b);
        b.next.label = "changed deep down";
        assertNotEquals(before, fp(b));

        Derived d = new Derived();
        long d0 = fp(d);
        d.inherited = 5;
        assertNotEquals(d0, fp(d));
    }

    @Test
    void mapsHashTheirEntriesWhateverTheInsertionOrder() {
        Map<String, Point> m1 = new HashMap<>();
        Map<String, Point> m2 = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            m1.put("k" + i, new Point(i, "v" + i));
            m2.put("k" + (199 - i), new Point(199 - i, "v" + (199 - i)));
        }
        long h = fp(m1);
        assertEquals(h, fp(m2));
        assertNotEquals(UNKNOWN, fp(new TreeMap<>(m1)));
        m1.get("k7").x = -1;
        assertNotEquals(h, fp(m1));
        m1.get("k7").x = 7;
        assertEquals(h, fp(m1));
        m1.put("new", null);
        assertNotEquals(h, fp(m1));
        m1.remove("new");
        assertEquals(h, fp(m1)); // put then remove: unchanged
        m1.put("k1", new Point(1, "other"));
        assertNotEquals(h, fp(m1));
        // swapping two values changes the map (entries, not a sum of keys and a sum of values)
        Map<String, Integer> s1 = new HashMap<>();
        s1.put("a", 1);
        s1.put("b", 2);
        Map<String, Integer> s2 = new HashMap<>();
        s2.put("a", 2);
        s2.put("b", 1);
        assertNotEquals(fp(s1), fp(s2));
        ConcurrentHashMap<String, Integer> c = new ConcurrentHashMap<>(s1);
        assertNotEquals(UNKNOWN, fp(c));
    }

    @Test
    void anAccessOrderedLinkedHashMapIsNotReordered() {
        Map<String, Integer> lru = new LinkedHashMap<>(16, 0.75f, true);
        lru.put("a", 1);
        lru.put("b", 2);
        lru.put("c", 3);
        long h = fp(lru);
        assertEquals(h, fp(lru));
        assertEquals(Arrays.asList("a", "b", "c"), new ArrayList<>(lru.keySet()));
    }

    @Test
    void listsAreOrderedSetsAreNot() {
        assertNotEquals(fp(new ArrayList<>(Arrays.asList(1, 2))), fp(new ArrayList<>(Arrays.asList(2, 1))));
        assertEquals(fp(new HashSet<>(Arrays.asList(1, 2, 3))), fp(new HashSet<>(Arrays.asList(3, 2, 1))));
        List<String> l = new ArrayList<>(Arrays.asList("x", "y"));
        long h = fp(l);
        l.add("z");
        assertNotEquals(h, fp(l));
        l.remove("z");
        assertEquals(h, fp(l));
        assertNotEquals(UNKNOWN, fp(Collections.unmodifiableList(l)));
        assertNotEquals(UNKNOWN, fp(Collections.emptyMap()));
    }

    @Test
    void atomicsHashTheirValue() {
        AtomicInteger i = new AtomicInteger();
        long h = fp(i);
        i.incrementAndGet();
        assertNotEquals(h, fp(i));
        AtomicLong l = new AtomicLong(5);
        assertEquals(fp(l), fp(new AtomicLong(5)));
        AtomicBoolean b = new AtomicBoolean();
        long hb = fp(b);
        b.set(true);
        assertNotEquals(hb, fp(b));
        AtomicReference<List<String>> r = new AtomicReference<>(new ArrayList<>());
        long hr = fp(r);
        r.get().add("x");
        assertNotEquals(hr, fp(r));
    }

    @Test
    void arraysHashTheirElementsInOrder() {
        int[] a = new int[8];
        long h = fp(a);
        a[3]++;
        assertNotEquals(h, fp(a));
        a[3]--;
        assertEquals(h, fp(a));
        Object[] o = {"a", new Point(1, "p"), null};
        long ho = fp(o);
        ((Point) o[1]).x = 2;
        assertNotEquals(ho, fp(o));
        for (Object arr : new Object[] {
            new long[3], new byte[3], new char[3], new short[3], new boolean[3], new float[3], new double[3]
        }) {
            assertNotEquals(UNKNOWN, fp(arr), arr.getClass().getName());
        }
        double[] d = {1.0};
        long hd = fp(d);
        d[0] = 2.0;
        assertNotEquals(hd, fp(d));
    }

    @Test
    void statelessLambdasAreConstantsCapturingOnesHashWhatTheyCaptured() {
        Function<String, Integer> f = s -> s.length();
        assertEquals(fp(f), fp(f));
        assertNotEquals(UNKNOWN, fp(f));
        assertNotEquals(UNKNOWN, fp(Function.identity()));
        assertNotEquals(UNKNOWN, fp(new Object()));
        int[] box = {1};
        IntSupplier captures = () -> box[0];
        long h = fp(captures);
        assertNotEquals(UNKNOWN, h);
        box[0] = 2;
        assertNotEquals(h, fp(captures));
    }

    @Test
    void overTheBudgetIsUnknown() {
        assertEquals(UNKNOWN, fp(new ArrayList<>(Collections.nCopies(100_000, 1))));
        assertNotEquals(UNKNOWN, fp(new ArrayList<>(Collections.nCopies(Fingerprint.BUDGET / 2, 1))));
        Map<Integer, Integer> big = new HashMap<>();
        for (int i = 0; i < 30_000; i++) {
            big.put(i, i);
        }
        assertEquals(UNKNOWN, fp(big));
        assertNotEquals(UNKNOWN, fp(new int[100_000])); // primitive arrays count one node per 64 elements
        assertEquals(UNKNOWN, fp(new int[64 * (Fingerprint.BUDGET + 1)]));
    }

    @Test
    void cyclesAndSharedObjectsTerminate() {
        Point p = new Point(1, "self");
        p.next = p;
        long h = fp(p);
        assertNotEquals(UNKNOWN, h);
        assertEquals(h, fp(p));
        p.x = 2;
        assertNotEquals(h, fp(p));
        List<Object> l = new ArrayList<>();
        l.add(l);
        l.add(p);
        l.add(p);
        assertNotEquals(UNKNOWN, fp(l));
        Point q = new Point(2, "self");
        q.next = q;
        assertEquals(fp(p), fp(q)); // identities do not matter
    }

    @Test
    void tooDeepIsUnknownNotAStackOverflow() {
        Point head = new Point(0, null);
        Point p = head;
        for (int i = 0; i < 5_000; i++) {
            p.next = new Point(i, null);
            p = p.next;
        }
        assertEquals(UNKNOWN, fp(head));
    }

    @Test
    void otherJdkObjectsAreUnknown() {
        assertEquals(UNKNOWN, fp(Thread.currentThread()));
        assertEquals(UNKNOWN, fp(getClass().getClassLoader()));
        assertEquals(UNKNOWN, fp(new java.io.ByteArrayOutputStream()));
        assertEquals(UNKNOWN, fp(new StringBuilder("x")));
        assertEquals(UNKNOWN, fp(Collections.singletonList(Thread.currentThread())));
        Point p = new Point(1, null);
        p.next = null;
        Object[] holder = {p, new Thread()};
        assertEquals(UNKNOWN, fp(holder));
    }

    /** A project collection: its iterator is project code and must not run. */
    static final class Counting extends AbstractList<String> {
        final List<String> items = new ArrayList<>(Arrays.asList("a", "b"));
        int iterated;

        @Override
        public Iterator<String> iterator() {
            iterated++;
            return items.iterator();
        }

        @Override
        public String get(int i) {
            iterated++;
            return items.get(i);
        }

        @Override
        public int size() {
            iterated++;
            return items.size();
        }
    }

    @Test
    void projectCollectionsAreHashedThroughTheirFieldsNotTheirCode() {
        Counting c = new Counting();
        long h = fp(c);
        assertEquals(0, c.iterated);
        assertNotEquals(UNKNOWN, h);
        c.items.add("c");
        assertNotEquals(h, fp(c));
        assertEquals(0, c.iterated);
    }

    /** A project map that only adds to a JDK map: iterated with the JDK's code. */
    static final class Registry extends HashMap<String, String> {
        private static final long serialVersionUID = 1L;
        String note = "n";
    }

    @Test
    void projectSubclassesOfJdkCollectionsThatDoNotOverrideIterationAreIterated() {
        Registry r = new Registry();
        r.put("a", "1");
        long h = fp(r);
        assertNotEquals(UNKNOWN, h);
        r.put("b", "2");
        assertNotEquals(h, fp(r));
        r.remove("b");
        assertEquals(h, fp(r));
        r.note = "m";
        assertNotEquals(h, fp(r));
        @SuppressWarnings("serial")
        Map<String, Integer> doubleBrace = new HashMap<String, Integer>() {
            {
                put("x", 1);
            }
        };
        long hd = fp(doubleBrace);
        assertNotEquals(UNKNOWN, hd);
        doubleBrace.put("y", 2);
        assertNotEquals(hd, fp(doubleBrace));
    }

    /** Overrides what the walk would call: hashed structurally, which a JDK superclass with fields forbids. */
    static final class Sneaky extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<String> iterator() {
            throw new AssertionError("project code ran");
        }
    }

    @Test
    void projectSubclassesThatOverrideIterationAreUnknown() {
        Sneaky s = new Sneaky();
        s.add("x");
        assertEquals(UNKNOWN, fp(s));
    }
}
