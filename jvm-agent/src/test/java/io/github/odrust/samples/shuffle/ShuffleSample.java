package io.github.odrust.samples.shuffle;

import java.io.File;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * ShuffleIT's program: one line per covered API, each line exactly one counted call (of eight or
 * more elements), so the log's count is the number of lines; order-free uses before them do not
 * count. {@code args[0]}: a directory with
 * eight files.
 */
public final class ShuffleSample {
    public int f1;
    public int f2;
    public int f3;
    public int f4;
    public int f5;
    public int f6;
    public int f7;
    public int f8;

    public ShuffleSample() {}

    public ShuffleSample(int a) {}

    public ShuffleSample(long a) {}

    public ShuffleSample(String a) {}

    public ShuffleSample(int a, int b) {}

    public ShuffleSample(long a, long b) {}

    public ShuffleSample(String a, String b) {}

    public ShuffleSample(int a, int b, int c) {}

    public void m1() {}

    public void m2() {}

    public void m3() {}

    public void m4() {}

    public void m5() {}

    public void m6() {}

    public void m7() {}

    public void m8() {}

    static final List<String> KEYS =
            Arrays.asList("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel");

    public static void main(String[] args) {
        Set<String> set = new HashSet<>(KEYS);
        Map<String, Integer> map = new HashMap<>();
        ConcurrentHashMap<String, Integer> chm = new ConcurrentHashMap<>();
        PriorityQueue<Integer> pq = new PriorityQueue<>();
        for (int i = 0; i < KEYS.size(); i++) {
            map.put(KEYS.get(i), i);
            chm.put(KEYS.get(i), i);
            pq.add(i * 7 % 8);
        }
        // Order-free uses: equality, hash codes and copies into hash collections do not count.
        if (!set.equals(new HashSet<>(set))
                || map.hashCode() != new HashMap<>(map).hashCode()
                || !set.containsAll(set)) {
            throw new AssertionError("a copy differs");
        }
        List<String> out = new ArrayList<>();
        out.add("HashSet.iterator " + String.join(",", set));
        out.add("HashSet.stream " + set.stream().collect(Collectors.toList()));
        out.add("HashSet.toArray " + Arrays.toString(set.toArray()));
        out.add("HashSet.toArray(T[]) " + Arrays.toString(set.toArray(new String[0])));
        out.add("keySet.iterator " + String.join(",", map.keySet()));
        out.add("values.iterator " + iterate(map.values().iterator()));
        out.add("entrySet.iterator " + iterate(map.entrySet().iterator()));
        out.add("keySet.toArray " + Arrays.toString(map.keySet().toArray()));
        out.add("values.toArray " + Arrays.toString(map.values().toArray(new Integer[0])));
        StringBuilder b = new StringBuilder();
        map.forEach((k, v) -> b.append(k).append(','));
        out.add("HashMap.forEach " + b);
        StringBuilder c = new StringBuilder();
        map.keySet().forEach(k -> c.append(k).append(','));
        out.add("keySet.forEach " + c);
        out.add("values.stream " + map.values().stream().map(String::valueOf).collect(Collectors.joining(",")));
        out.add("entrySet.stream "
                + map.entrySet().stream().map(String::valueOf).collect(Collectors.joining(",")));
        out.add("PriorityQueue.iterator " + iterate(pq.iterator()));
        out.add("PriorityQueue.toArray " + Arrays.toString(pq.toArray()));
        out.add("ConcurrentHashMap.keySet " + iterate(chm.keySet().iterator()));
        out.add("ConcurrentHashMap.values " + iterate(chm.values().iterator()));
        out.add("ConcurrentHashMap.entrySet " + iterate(chm.entrySet().iterator()));
        out.add("Class.getDeclaredFields " + names(ShuffleSample.class.getDeclaredFields()));
        out.add("Class.getFields " + names(ShuffleSample.class.getFields()));
        out.add("Class.getDeclaredMethods " + names(ShuffleSample.class.getDeclaredMethods()));
        out.add("Class.getMethods " + names(ShuffleSample.class.getMethods()));
        out.add("Class.getDeclaredConstructors " + Arrays.toString(ShuffleSample.class.getDeclaredConstructors()));
        out.add("Class.getConstructors " + Arrays.toString(ShuffleSample.class.getConstructors()));
        out.add("File.list " + Arrays.toString(new File(args[0]).list()));
        out.add("File.listFiles " + Arrays.toString(new File(args[0]).listFiles()));
        out.add("Library.join " + io.github.odrust.samples.shufflelib.ShuffleLibrary.join(set));
        for (String line : out) {
            System.out.println(line);
        }
    }

    private static String iterate(Iterator<?> it) {
        StringBuilder b = new StringBuilder();
        while (it.hasNext()) {
            b.append(it.next()).append(',');
        }
        return b.toString();
    }

    private static String names(Member[] members) {
        StringBuilder b = new StringBuilder();
        for (Member m : members) {
            b.append(m.getName())
                    .append(
                            m instanceof java.lang.reflect.Method
                                    ? Arrays.toString(((java.lang.reflect.Method) m).getParameterTypes())
                                    : "")
                    .append(',');
        }
        return b.toString();
    }
}
