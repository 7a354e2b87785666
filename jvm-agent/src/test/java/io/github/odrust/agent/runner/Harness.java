package io.github.odrust.agent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.Strictness;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import io.github.odrust.agent.samples.SampleLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes plans, runs the agent in-process, reads its events. */
public final class Harness {
    static final String P = "io.github.odrust.agent.samples.";

    /**
     * Reads the agent's JSON strictly (a raw control character in a string is an error), whole
     * numbers as {@code Long}, others as {@code Double}; objects keep their key order.
     */
    private static final Gson GSON = new GsonBuilder()
            .setStrictness(Strictness.STRICT)
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .serializeNulls()
            .create();

    final Path dir;
    final Path events;
    final StringBuilder plan = new StringBuilder();
    List<Map<String, Object>> out;
    int status;

    Harness(Path dir, String mode) {
        this.dir = dir;
        this.events = dir.resolve("events.jsonl");
        plan.append("odrust-plan\t1\n")
                .append("mode\t")
                .append(mode)
                .append('\n')
                .append("events\t")
                .append(events)
                .append('\n');
    }

    static Harness discover(Path dir, String... classes) {
        Harness h = new Harness(dir, "discover");
        for (String c : classes) {
            h.line("candidate", P + c);
        }
        return h;
    }

    static Harness run(Path dir) {
        return new Harness(dir, "run");
    }

    Harness line(String... fields) {
        plan.append(String.join("\t", fields)).append('\n');
        return this;
    }

    /** A segment: framework, simple sample class name, then method parts ("a", "p[2]"). */
    Harness segment(String framework, String cls, String... methods) {
        line("segment", framework, P + cls);
        for (String m : methods) {
            line("test", P + cls + "#" + m);
        }
        return this;
    }

    Harness go() throws IOException {
        SampleLog.reset();
        Path planFile = dir.resolve("plan.tsv");
        Files.write(planFile, plan.toString().getBytes(StandardCharsets.UTF_8));
        status = Agent.run(planFile);
        out = read(events);
        return this;
    }

    Harness ok() {
        assertEquals(0, status, "agent status; events: " + out);
        assertEquals("start", out.get(0).get("event"));
        assertEquals("end", out.get(out.size() - 1).get("event"), "last event");
        return this;
    }

    /** The events of an events file, one map per line. */
    public static List<Map<String, Object>> read(Path events) throws IOException {
        List<Map<String, Object>> l = new ArrayList<>();
        for (String line : Files.readAllLines(events, StandardCharsets.UTF_8)) {
            l.add(object(line));
        }
        return l;
    }

    /** One JSON value: a map, list, string, Long, Double, Boolean or null. */
    static Object parse(String json) {
        return GSON.fromJson(json, Object.class);
    }

    static Map<String, Object> object(String json) {
        return GSON.fromJson(json, new TypeToken<Map<String, Object>>() {}.getType());
    }

    List<Map<String, Object>> events(String kind) {
        return out.stream().filter(e -> kind.equals(e.get("event"))).collect(Collectors.toList());
    }

    /** The test events' ids in the order written, with the sample package prefix removed. */
    List<String> ran() {
        return events("test").stream().map(e -> strip((String) e.get("test"))).collect(Collectors.toList());
    }

    List<String> started() {
        return events("test-start").stream()
                .map(e -> strip((String) e.get("test")))
                .collect(Collectors.toList());
    }

    Map<String, Object> test(String shortId) {
        List<Map<String, Object>> l = events("test").stream()
                .filter(e -> strip((String) e.get("test")).equals(shortId))
                .collect(Collectors.toList());
        assertEquals(1, l.size(), "test events for " + shortId + " in " + out);
        return l.get(0);
    }

    String outcome(String shortId) {
        return (String) test(shortId).get("outcome");
    }

    static String strip(String id) {
        return id.startsWith(P) ? id.substring(P.length()) : id;
    }

    static List<String> strip(List<?> ids) {
        return ids.stream().map(o -> strip((String) o)).collect(Collectors.toList());
    }

    static List<String> list(String... s) {
        return Arrays.asList(s);
    }
}
