package io.github.odrust.agent.shuffle.rt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A seed permutes a call's elements from an order that does not depend on the JVM: the same seed
 * and call give the same result whatever order the JDK returned them in (reflection's members and
 * {@code File.list} by their texts; collections' elements by values the same in every JVM, then
 * identity-hashed ones by class).
 */
class ShufflerTest {
    @AfterEach
    void off() {
        Shuffler.end();
    }

    private static List<Object> shuffled(List<?> items, long seed, long call, Keyed.Order order) throws Exception {
        Shuffler.begin(seed, new long[0], null, false, 0, false, null, 0);
        List<Object> out = new ArrayList<>(items);
        Shuffler.reorder(out, Shuffler.positions(out, call, order));
        return out;
    }

    private static List<Object> shuffled(List<?> items, long seed, long call) throws Exception {
        return shuffled(items, seed, call, Keyed.Order.KEYS);
    }

    private static List<Object> byName(List<?> items, long seed, long call) throws Exception {
        return shuffled(items, seed, call, Keyed.Order.NAMES);
    }

    @Test
    void namesInAnyOwnOrderComeOutAlike() throws Exception {
        List<String> names = Arrays.asList("delta", "alpha", "echo", "charlie", "bravo", "foxtrot");
        List<String> reversed = new ArrayList<>(names);
        Collections.reverse(reversed);
        List<String> sorted = new ArrayList<>(names);
        Collections.sort(sorted);
        // odd seeds: under an even one a result equal to the JDK's own order is rotated, so there
        // the result depends on that order (see anEvenSeedAlwaysChangesTheOwnOrder)
        for (long seed : new long[] {11, 13}) {
            for (long call = 1; call <= 20; call++) {
                List<Object> a = byName(names, seed, call);
                assertEquals(a, byName(reversed, seed, call), "seed " + seed + ", call " + call);
                assertEquals(a, byName(sorted, seed, call), "seed " + seed + ", call " + call);
                List<Object> elements = new ArrayList<>(a);
                elements.sort(Comparator.comparing(String::valueOf));
                assertEquals(sorted, elements, "a permutation");
            }
        }
    }

    @Test
    void methodsInAnyOwnOrderComeOutAlike() throws Exception {
        List<Method> own = Arrays.asList(String.class.getMethods());
        List<Method> other = new ArrayList<>(own);
        Collections.reverse(other);
        assertEquals(byName(own, 13, 7), byName(other, 13, 7));
        assertNotEquals(byName(own, 13, 7), byName(own, 15, 7), "another seed, another order");
    }

    @Test
    void anEvenSeedAlwaysChangesTheOwnOrder() throws Exception {
        // Two elements: every even seed's result differs from the order given, whichever it is.
        for (List<String> own : Arrays.asList(Arrays.asList("a", "b"), Arrays.asList("b", "a"))) {
            for (long call = 1; call <= 50; call++) {
                assertNotEquals(own, byName(own, 20, call), "call " + call + " of " + own);
            }
        }
        // Under an odd seed the order given may come out (two calls can then disagree).
        int kept = 0;
        for (long call = 1; call <= 50; call++) {
            kept += byName(Arrays.asList("a", "b"), 21, call).equals(Arrays.asList("a", "b")) ? 1 : 0;
        }
        assertNotEquals(0, kept, "some odd-seed calls keep the order");
        assertNotEquals(50, kept, "and some change it");
    }

    /** An object without its own hashCode: a HashSet iterates it by its identity hash code. */
    static final class Bean {
        final String name;

        Bean(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    enum Colour {
        RED,
        GREEN,
        BLUE
    }

    @Test
    void collectionElementsInAnyOwnOrderComeOutAlike() throws Exception {
        // jxpath's TestBean.getSet: a String, an Integer and a bean hashed by identity
        Bean bean = new Bean("Name 4");
        // a JDK object whose hash code mixes in a class's identity hash code: by its text
        Object descriptor = new java.beans.PropertyDescriptor("name", Bean.class, null, null);
        List<Object> own = Arrays.asList("String 4", 4, bean, Colour.GREEN, String.class, null, descriptor);
        for (long seed : new long[] {11, 13}) {
            for (long call = 1; call <= 20; call++) {
                List<Object> expected = shuffled(own, seed, call);
                for (int rotation = 1; rotation < own.size(); rotation++) {
                    List<Object> other = new ArrayList<>(own);
                    Collections.rotate(other, rotation);
                    assertEquals(expected, shuffled(other, seed, call), "seed " + seed + ", call " + call);
                }
            }
        }
        // map entries by their keys
        java.util.Map<Object, Object> a = new java.util.HashMap<>();
        a.put("x", bean);
        a.put(Colour.RED, "r");
        a.put(7L, new Bean("v"));
        List<Object> entries = new ArrayList<>(a.entrySet());
        List<Object> reversed = new ArrayList<>(entries);
        Collections.reverse(reversed);
        for (long call = 1; call <= 20; call++) {
            assertEquals(shuffled(entries, 13, call), shuffled(reversed, 13, call), "call " + call);
            assertNotEquals(entries, shuffled(entries, 12, call), "an even seed changes every call");
        }
    }

    @Test
    void beansHashedByIdentityKeepTheJdksOrderBetweenThem() throws Exception {
        // nothing tells them apart but their identity: the permutation is applied to the JDK's
        // order as it is, so another JDK order gives the same positions, not the same beans
        assertSamePositions(new Bean("a"), new Bean("b"), new Bean("c"), Keyed.Order.KEYS);
    }

    /**
     * Items nothing tells apart but their identity: a call over {@code c, b, a} comes out as the
     * call over {@code a, b, c} with {@code a} and {@code c} swapped (the same positions).
     */
    private static void assertSamePositions(Object a, Object b, Object c, Keyed.Order order) throws Exception {
        for (long call = 1; call <= 10; call++) {
            List<Object> abc = shuffled(Arrays.asList(a, b, c), 13, call, order);
            List<Object> cba = shuffled(Arrays.asList(c, b, a), 13, call, order);
            List<Object> swapped = new ArrayList<>();
            for (Object o : abc) {
                swapped.add(o == a ? c : o == c ? a : b);
            }
            assertEquals(swapped, cba, "call " + call);
        }
    }

    @Test
    void countersHashedByIdentityAreNotTakenForValues() throws Exception {
        // an AtomicInteger is a Number whose hash code is its identity: with the beans, by class
        assertSamePositions(
                new java.util.concurrent.atomic.AtomicInteger(1),
                new java.util.concurrent.atomic.AtomicInteger(2),
                new java.util.concurrent.atomic.AtomicInteger(3),
                Keyed.Order.VALUES);
    }

    @Test
    void valuesAreNotHashedAndKeysWhoseHashCodeThrowsGoLast() throws Exception {
        Hashed value = new Hashed();
        shuffled(Arrays.asList(value, new Hashed(), "v"), 13, 1, Keyed.Order.VALUES);
        assertEquals(0, value.hashed, "a map's values are not hashed");
        shuffled(Arrays.asList(value, new Hashed(), "v"), 13, 1, Keyed.Order.KEYS);
        assertEquals(1, value.hashed, "a key is");
        Object throwing = new Object() {
            @Override
            public int hashCode() {
                throw new IllegalStateException("not now");
            }
        };
        List<Object> keys = Arrays.asList(throwing, "k", 3);
        List<Object> out = shuffled(keys, 13, 1);
        assertEquals(3, out.size());
        assertTrue(out.contains(throwing));
        assertTrue(Keyed.of(throwing, 0, true).compareTo(Keyed.of("k", 1, true)) > 0, "after the values");
        assertTrue(Keyed.of(throwing, 0, true).compareTo(Keyed.of(3, 2, true)) > 0, "after the values");
    }

    /**
     * Keyed.sort (primitive keys first) puts items exactly where a stable object sort does: equal
     * hashes, the extremes of int, identity-hashed items, items that tie on everything.
     */
    @Test
    void theFastSortOrdersAsTheStableSortDoes() {
        java.util.Random random = new java.util.Random(7);
        int[] hashes = {Integer.MIN_VALUE, -1, 0, 1, 5, Integer.MAX_VALUE};
        for (int round = 0; round < 300; round++) {
            int n = 1 + random.nextInt(round < 200 ? 12 : 3000);
            List<Object> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                switch (random.nextInt(6)) {
                    case 0:
                        items.add(new Object());
                        break;
                    case 1:
                        items.add(hashes[random.nextInt(hashes.length)]);
                        break;
                    case 2:
                        items.add(new Hashed());
                        break;
                    case 3:
                        items.add("s" + random.nextInt(8));
                        break;
                    case 4:
                        items.add(hashes[random.nextInt(hashes.length)] + 0L);
                        break;
                    default:
                        items.add(random.nextInt(4) == 0 ? null : Thread.State.values()[random.nextInt(3)]);
                }
            }
            for (Keyed.Order order : Keyed.Order.values()) {
                Keyed[] expected = new Keyed[n];
                for (int i = 0; i < n; i++) {
                    expected[i] = order == Keyed.Order.NAMES
                            ? Keyed.named(items.get(i), i)
                            : Keyed.of(items.get(i), i, order == Keyed.Order.KEYS);
                }
                Keyed[] actual = expected.clone();
                Arrays.sort(expected);
                Keyed.sort(actual);
                for (int i = 0; i < n; i++) {
                    assertEquals(
                            expected[i].position, actual[i].position, "round " + round + ", " + order + ", place " + i);
                }
            }
        }
    }

    /** Counts its hashCode calls. */
    static final class Hashed {
        int hashed;

        @Override
        public int hashCode() {
            hashed++;
            return 42;
        }
    }
}
