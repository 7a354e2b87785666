package io.github.odrust.maven.run;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Suite;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The module's suite as discovery found it and {@code suite.json} keeps it (docs/protocol.md,
 * "Suite"): the engine's part ({@link #wire}) and, per class, the agent's {@code note} (why a class
 * keeps its own order), which the engine does not accept. Its fields are in the order the agent
 * writes them: {@code suite.json} ({@code Json.PRETTY_WITHOUT_NULLS}) and the wire form run.json's
 * {@code suite_sha256} is taken over ({@code Json.WIRE}, nulls kept) are the bytes they were when
 * the suite was a {@code JsonObject} (SuiteBytesTest).
 */
public final class DiscoveredSuite {
    @SerializedName("schema_version")
    public int schemaVersion;

    public String module;
    public List<ClassRecord> classes = new ArrayList<>();

    /** One test class, as the agent's {@code class} event gives it. */
    public static final class ClassRecord {
        @SerializedName("class")
        public String className;
        /** {@code junit4} or {@code junit5}. */
        public String framework;
        /** False when the framework fixes the order of its tests. */
        public boolean reorderable;

        public List<String> tests = new ArrayList<>();
        /** The tests that are dynamic containers (their invocations are known only once run). */
        public List<String> dynamic = new ArrayList<>();
        /** Why the class keeps its own order (or has no tests), or null; suite.json only. */
        public String note;
    }

    /** A suite as JSON ({@code suite.json}'s layout). */
    public static DiscoveredSuite of(JsonObject suite) {
        return Json.WIRE.fromJson(suite, DiscoveredSuite.class);
    }

    /** As JSON, nulls kept (the wire form). */
    public JsonObject toJson() {
        return Json.WIRE.toJsonTree(this).getAsJsonObject();
    }

    /** The engine's part: everything but the notes. */
    public Suite wire() {
        Suite s = new Suite();
        s.schemaVersion = schemaVersion;
        s.module = module;
        for (ClassRecord c : classes) {
            Suite.ClassRecord w = new Suite.ClassRecord();
            w.className = c.className;
            w.framework = c.framework;
            w.reorderable = c.reorderable;
            w.tests = new ArrayList<>(c.tests);
            w.dynamic = new ArrayList<>(c.dynamic);
            s.classes.add(w);
        }
        return s;
    }

    /** The original order: every test of the suite, class by class, as `mvn test` runs them. */
    public List<String> originalOrder() {
        List<String> order = new ArrayList<>();
        classes.forEach(c -> order.addAll(c.tests));
        return order;
    }

    /** The same suite with only the classes named in {@code classNames}, in the suite's order. */
    public DiscoveredSuite only(Collection<String> classNames) {
        DiscoveredSuite s = new DiscoveredSuite();
        s.schemaVersion = schemaVersion;
        s.module = module;
        for (ClassRecord c : classes) {
            if (classNames.contains(c.className)) {
                s.classes.add(c);
            }
        }
        return s;
    }
}
