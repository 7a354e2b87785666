package io.github.odrust.agent.samples;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Shared state the sample tests write to, so tests can see what really ran. */
public final class SampleLog {
    public static final List<String> LOG = Collections.synchronizedList(new ArrayList<String>());
    private static final Map<String, Integer> COUNTS = new HashMap<>();

    private SampleLog() {}

    public static synchronized void reset() {
        LOG.clear();
        COUNTS.clear();
    }

    public static synchronized void count(String key) {
        Integer c = COUNTS.get(key);
        COUNTS.put(key, c == null ? 1 : c + 1);
        LOG.add(key);
    }

    public static synchronized int get(String key) {
        Integer c = COUNTS.get(key);
        return c == null ? 0 : c;
    }
}
