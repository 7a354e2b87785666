package io.github.odrust.maven.run;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of an order produced: {@code result.json} (schema in docs/run-order.md). Field names
 * become snake_case in JSON. The file is rewritten atomically after every test JVM.
 */
public final class RunResult {
    public static final int SCHEMA_VERSION = 1;
    public static final List<String> OUTCOMES =
            List.of("pass", "fail", "error", "skipped", "crash", "timeout", "exit", "not-run");
    /**
     * The outcomes that count as the test failing, as the engine's {@code RunOutcome::passed}: a
     * skipped or not-run test never ran. Both lists are the engine's {@code vocabulary}
     * ({@code ProtocolTest} checks them).
     */
    public static final java.util.Set<String> FAILED_OUTCOMES =
            java.util.Set.of("fail", "error", "crash", "timeout", "exit");

    private static final Gson JSON = Json.PRETTY_SNAKE_CASE;

    /**
     * The tests that failed ({@link #FAILED_OUTCOMES}) among a record's {@code results} (objects
     * with {@code test} and {@code outcome}), in their order; empty for {@code null}.
     */
    public static List<String> failedTests(com.google.gson.JsonArray results) {
        List<String> failed = new ArrayList<>();
        if (results == null) {
            return failed;
        }
        for (JsonElement r : results) {
            com.google.gson.JsonObject result = r.getAsJsonObject();
            JsonElement outcome = result.get("outcome");
            JsonElement test = result.get("test");
            if (outcome != null && !outcome.isJsonNull() && FAILED_OUTCOMES.contains(outcome.getAsString())) {
                failed.add(test == null || test.isJsonNull() ? null : test.getAsString());
            }
        }
        return failed;
    }

    public int schemaVersion = SCHEMA_VERSION;
    public String module;
    public String orderSource;
    public List<String> requested = new ArrayList<>();
    public Boolean honoured;
    public JsonElement firstDifference;
    public List<TestResult> results = new ArrayList<>();
    public List<Segment> segments = new ArrayList<>();
    /** Recorded runs only: class-level static field accesses. */
    @SerializedName("class_state")
    public List<ClassState> classStates = new ArrayList<>();

    public List<Jvm> jvms = new ArrayList<>();
    public List<String> warnings = new ArrayList<>();
    public Map<String, Integer> summary = new LinkedHashMap<>();

    /** One test as it really ran. */
    public static final class TestResult {
        public String test;
        public String outcome;
        public String message;
        public String exception;
        public String trace;
        /**
         * A failed comparison's values in full, as the agent read them from the assertion's
         * exception (null otherwise); not written to result files.
         */
        public transient String expected;

        public transient String actual;
        public Long timeMs;
        public int jvm;
        public Integer segment;
        /** Static fields it read / wrote, when the run recorded them (null otherwise; docs/dependence.md). */
        public List<String> reads;

        public List<String> writes;
        /** Runs with the shuffle agent: the counted calls made while it ran (null otherwise; docs/protocol.md). */
        public Long calls;
    }

    /** Static fields read and written by a class's fixtures outside any test (recorded runs only). */
    public static final class ClassState {
        @SerializedName("class")
        public String className;

        public List<String> reads = new ArrayList<>();
        public List<String> writes = new ArrayList<>();
    }

    /** One JUnit request: a class, its tests in order, class-level setup once. */
    public static final class Segment {
        public int index;

        @SerializedName("class")
        public String className;

        public String framework;
        public List<String> tests = new ArrayList<>();
        public int jvm;
        public String split;
    }

    /** One test JVM. */
    public static final class Jvm {
        public int index;
        public String status;
        public Integer exitCode;
        public long millis;
        public String events;
        public String log;
        public String plan;
        /** The OutOfMemoryError that ended it, when the tests ran it out of memory. */
        public String outOfMemory;
        /** It was a shared JVM ({@code -Dodrust.isolation=classloader}) that had run other orders. */
        public boolean shared;
        /** The JVM's clock (ms since it started) when odrust's runner started, its first test started, and the runner ended. */
        public Long startMs;

        public Long firstTestMs;
        public Long endMs;

        /**
         * Where this JVM's time went, when its runner reported its clock: {@code [boot, setup, tests, exit]}
         * (docs/protocol.md, "Detection"), else null.
         */
        public long[] phases() {
            if (startMs == null || endMs == null || endMs < startMs) {
                return null;
            }
            long first = firstTestMs == null ? endMs : Math.min(Math.max(firstTestMs, startMs), endMs);
            long exit = Math.max(0, millis - endMs);
            return new long[] {startMs, first - startMs, endMs - first, exit};
        }
    }

    public void summarize() {
        summary.clear();
        for (String o : OUTCOMES) {
            summary.put(o, 0);
        }
        for (TestResult r : results) {
            summary.merge(r.outcome, 1, Integer::sum);
        }
    }

    /**
     * Each test's result as an experiment record holds it (docs/protocol.md): test, outcome, the
     * message (or, for a failure without one, its exception class), time and recorded accesses.
     */
    public com.google.gson.JsonArray resultsJson() {
        com.google.gson.JsonArray results = new com.google.gson.JsonArray();
        for (TestResult t : this.results) {
            com.google.gson.JsonObject o = new com.google.gson.JsonObject();
            o.addProperty("test", t.test);
            o.addProperty("outcome", t.outcome);
            // A failure without a message is still named: by its exception class.
            o.addProperty("message", t.message != null ? t.message : t.exception);
            if (t.timeMs != null) {
                o.addProperty("time_ms", t.timeMs);
            }
            if (t.reads != null) {
                o.add("reads", JSON.toJsonTree(t.reads));
            }
            if (t.writes != null) {
                o.add("writes", JSON.toJsonTree(t.writes));
            }
            if (t.calls != null) {
                o.addProperty("calls", t.calls);
            }
            results.add(o);
        }
        return results;
    }

    public long count(String outcome) {
        return results.stream().filter(r -> outcome.equals(r.outcome)).count();
    }

    public void write(Path file) throws IOException {
        summarize();
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.createDirectories(file.getParent());
        Files.write(tmp, JSON.toJson(this).getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
