package io.github.odrust.samples.shuffle;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ShuffleIT's program for what a shuffled view must do besides ordering: remove through its
 * iterator, {@code removeIf}, {@code remove(Object)} of a values view (which iterates the view
 * itself), {@code forEachRemaining}, and the iterator's contract (remove twice, remove before
 * next). Each line is the same whatever order the views iterate in, so a run under any seed must
 * print exactly what a run without the agent prints.
 */
public final class ShuffleRemoveSample {
    private ShuffleRemoveSample() {}

    public static void main(String[] args) {
        // values() with duplicate values (the same cached Integer objects): removing every 1
        Map<String, Integer> m = map();
        for (Iterator<Integer> it = m.values().iterator(); it.hasNext(); ) {
            if (it.next() == 1) {
                it.remove();
            }
        }
        print("HashMap.values.iterator.remove", m);

        // values().remove(Object) goes through the view's own iterator
        m = map();
        boolean removed = m.values().remove(2);
        print("HashMap.values.remove " + removed + " " + m.size(), count(m.values(), 2));

        // every entry removed through values(), one by one
        m = map();
        for (Iterator<Integer> it = m.values().iterator(); it.hasNext(); ) {
            it.next();
            it.remove();
        }
        print("HashMap.values.iterator.remove-all", m);

        m = map();
        for (Iterator<String> it = m.keySet().iterator(); it.hasNext(); ) {
            String k = it.next();
            if (k.endsWith("0") || k.endsWith("3") || k.endsWith("7")) {
                it.remove();
            }
        }
        print("HashMap.keySet.iterator.remove", m);

        m = map();
        for (Iterator<Map.Entry<String, Integer>> it = m.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Integer> e = it.next();
            if (e.getValue() == 0) {
                it.remove();
            }
        }
        print("HashMap.entrySet.iterator.remove", m);

        m = map();
        m.values().removeIf(v -> v == 2);
        m.keySet().removeIf(k -> k.endsWith("1"));
        print("HashMap.views.removeIf", m);

        Set<String> s = new HashSet<>(map().keySet());
        for (Iterator<String> it = s.iterator(); it.hasNext(); ) {
            if (it.next().compareTo("k05") < 0) {
                it.remove();
            }
        }
        s.removeIf(k -> k.endsWith("9"));
        print("HashSet.iterator.remove", new ArrayList<>(s));

        PriorityQueue<Integer> q = new PriorityQueue<>();
        for (int i = 0; i < 20; i++) {
            q.add((i * 7) % 20);
        }
        for (Iterator<Integer> it = q.iterator(); it.hasNext(); ) {
            if (it.next() % 3 == 0) {
                it.remove();
            }
        }
        q.removeIf(x -> x % 5 == 0);
        List<Integer> polled = new ArrayList<>();
        while (!q.isEmpty()) {
            polled.add(q.poll());
        }
        print("PriorityQueue.iterator.remove", polled);

        ConcurrentHashMap<String, Integer> c = new ConcurrentHashMap<>(map());
        for (Iterator<Integer> it = c.values().iterator(); it.hasNext(); ) {
            if (it.next() == 1) {
                it.remove();
            }
        }
        for (Iterator<String> it = c.keySet().iterator(); it.hasNext(); ) {
            if (it.next().endsWith("2")) {
                it.remove();
            }
        }
        c.entrySet().removeIf(e -> e.getKey().endsWith("6"));
        print("ConcurrentHashMap.views.remove", c);

        // forEachRemaining after two elements: the rest, each once
        m = map();
        Iterator<String> it = m.keySet().iterator();
        List<String> seen = new ArrayList<>();
        seen.add(it.next());
        seen.add(it.next());
        it.forEachRemaining(seen::add);
        Collections.sort(seen);
        print("HashMap.keySet.iterator.forEachRemaining " + seen.size(), seen);

        // the contract: remove before next, remove twice
        Iterator<String> fresh = map().keySet().iterator();
        print("remove-before-next", throwsOn(fresh));
        fresh.next();
        fresh.remove();
        print("remove-twice", throwsOn(fresh));
    }

    private static Map<String, Integer> map() {
        Map<String, Integer> m = new HashMap<>();
        for (int i = 0; i < 12; i++) {
            m.put(String.format("k%02d", i), i % 3);
        }
        return m;
    }

    private static String throwsOn(Iterator<?> it) {
        try {
            it.remove();
            return "no exception";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static int count(Collection<Integer> values, int v) {
        int n = 0;
        for (Integer x : new ArrayList<>(values)) {
            n += x == v ? 1 : 0;
        }
        return n;
    }

    private static void print(String what, Object state) {
        Object shown = state;
        if (state instanceof Map) {
            shown = new TreeMap<>((Map<?, ?>) state);
        } else if (state instanceof List) {
            List<Object> sorted = new ArrayList<>((List<?>) state);
            sorted.sort(null);
            shown = sorted;
        }
        System.out.println(what + " " + shown);
    }
}
