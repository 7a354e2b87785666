package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite as the engine reads it (Rust: {@code model::suite::Suite}; docs/protocol.md, "Suite"):
 * sent in {@code plan_order}, {@code detect_next}, {@code detect_summary} and {@code detect_merge}.
 * The plugin keeps the discovered suite as {@code maven.run.DiscoveredSuite}, written to {@code
 * suite.json} (its records also carry the agent's {@code note}, which the engine does not read); its
 * {@code wire()} takes the engine's part, and {@link #of} takes it from suite.json read back.
 */
public final class Suite {
    @SerializedName("schema_version")
    public int schemaVersion;

    public String module;
    public List<ClassRecord> classes = new ArrayList<>();

    /** The engine's part of a discovered suite ({@code suite.json}). */
    public static Suite of(JsonObject suite) {
        return Json.WIRE.fromJson(suite, Suite.class);
    }

    /** One test class (Rust: {@code model::suite::ClassRecord}). */
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
    }
}
