package io.github.odrust.samples.shuffle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * ShuffleIT's program for results of fewer than two elements: the covered collection APIs
 * (iterators, spliterators, {@code toArray} with and without a longer array, {@code forEach}) on an
 * empty and a one-element collection (none of these calls counts: they have one order only), a
 * spliterator made on an empty map and traversed after a put (one of fewer than two elements is
 * left to the JDK, which binds it at its first traversal), then one set of three elements
 * iterated (the one counted call).
 */
public final class ShuffleSmallSample {
    private ShuffleSmallSample() {}

    public static void main(String[] args) {
        for (int n = 0; n < 2; n++) {
            Map<String, Integer> map = new HashMap<>();
            Set<String> set = new HashSet<>();
            PriorityQueue<Integer> queue = new PriorityQueue<>();
            Map<String, Integer> concurrent = new ConcurrentHashMap<>();
            for (int i = 0; i < n; i++) {
                map.put("k" + i, i);
                set.add("s" + i);
                queue.add(i);
                concurrent.put("c" + i, i);
            }
            List<String> out = new ArrayList<>();
            out.add(String.valueOf(new ArrayList<>(map.keySet())));
            out.add(String.valueOf(new ArrayList<>(map.values())));
            for (Map.Entry<String, Integer> e : map.entrySet()) {
                out.add(e.toString());
            }
            out.add(map.keySet().stream().collect(Collectors.joining(",")));
            map.forEach((k, v) -> out.add(k + v));
            map.keySet().forEach(out::add);
            for (String s : set) {
                out.add(s);
            }
            out.add(set.stream().collect(Collectors.joining(",")));
            out.add(java.util.Arrays.toString(set.toArray()));
            out.add(java.util.Arrays.toString(set.toArray(new String[4])));
            out.add(java.util.Arrays.toString(queue.toArray()));
            queue.forEach(q -> out.add("q" + q));
            out.add(String.valueOf(queue.stream().count()));
            out.add(map.values().stream().map(String::valueOf).collect(Collectors.joining(",")));
            out.add(String.valueOf(map.entrySet().stream().count()));
            map.values().forEach(v -> out.add("v" + v));
            out.add(java.util.Arrays.toString(map.keySet().toArray(new String[3])));
            for (Integer q : queue) {
                out.add(String.valueOf(q));
            }
            out.add(String.valueOf(new ArrayList<>(concurrent.keySet())));
            System.out.println(n + ": " + out);
        }
        // a spliterator binds to its map at its first traversal, not when it is made
        Map<String, Integer> late = new HashMap<>();
        java.util.Spliterator<String> spliterator = late.keySet().spliterator();
        late.put("late", 1);
        List<String> seen = new ArrayList<>();
        spliterator.forEachRemaining(seen::add);
        System.out.println("late-binding " + seen);
        Set<String> three = new HashSet<>();
        Collections.addAll(three, "x", "y", "z");
        StringBuilder line = new StringBuilder();
        for (String s : three) {
            line.append(s);
        }
        System.out.println(line);
    }
}
