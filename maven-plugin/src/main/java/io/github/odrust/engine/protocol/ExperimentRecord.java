package io.github.odrust.engine.protocol;

import com.google.gson.JsonElement;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of {@code detect/experiments.jsonl} as the engine reads it (Rust:
 * {@code model::experiment::ExperimentRecord}; docs/protocol.md, "Detection"): the experiment the
 * planner asked for and what happened. Sent as the history of {@code detect_next},
 * {@code detect_summary} and {@code detect_merge}.
 */
public final class ExperimentRecord {
    public int id;
    public ExperimentKind kind;
    public Integer round;
    public Strategy strategy;
    public List<String> order = new ArrayList<>();
    public List<String> targets = new ArrayList<>();
    public List<TestResult> results = new ArrayList<>();
    /** Whether the run kept the order asked for; true when absent. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Boolean honoured;

    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Long millis;
    /** Recorded runs: static fields read and written by class fixtures; absent otherwise. */
    @SerializedName("class_state")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public List<ClassState> classState;

    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public ExperimentTime time;
    /** {@code classloader} for an experiment in a shared JVM; absent for fresh JVMs. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public String isolation;
    /** As planned: whether it could have run in a shared JVM; absent when not. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Boolean shareable;

    /** A record as the plugin keeps it (a line of experiments.jsonl). */
    public static ExperimentRecord of(JsonElement record) {
        return Json.WIRE.fromJson(record, ExperimentRecord.class);
    }

    /** The results of one test (Rust: {@code model::experiment::TestResult}). */
    public static final class TestResult {
        public String test;
        /** {@code pass}, {@code fail}, {@code error}, {@code skipped}, ... */
        public String outcome;

        public String message;

        @SerializedName("time_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long timeMs;
        /** Recorded runs: static fields it read / wrote; absent otherwise. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<String> reads;

        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<String> writes;
    }

    /** Rust: {@code model::experiment::ClassState}. */
    public static final class ClassState {
        @SerializedName("class")
        public String className;

        public List<String> reads = new ArrayList<>();
        public List<String> writes = new ArrayList<>();
    }

    /** Where the experiment's time went (Rust: {@code model::experiment::ExperimentTime}). */
    public static final class ExperimentTime {
        @SerializedName("jvm_ms")
        public long jvmMs;
        /** The parts, when every JVM of the experiment reported its clock; absent otherwise. */
        @SerializedName("boot_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long bootMs;

        @SerializedName("setup_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long setupMs;

        @SerializedName("tests_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long testsMs;

        @SerializedName("exit_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long exitMs;

        @SerializedName("odrust_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long odrustMs;
    }
}
