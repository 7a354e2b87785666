package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Request of {@code repair_next} (Rust: {@code repair::RepairRequest}; docs/repair.md). */
public final class RepairRequest {
    public Target target;
    /**
     * This test's repair records ({@code repair/experiments.jsonl}). Rust {@code repair::RepairRecord}
     * flattens the experiment into the record, so serde cannot refuse unknown fields there; they
     * stay JSON as the file has them.
     */
    public List<JsonObject> history = new ArrayList<>();

    @SerializedName("next_id")
    public Integer nextId;
    /** Experiments to spend at most; the engine's default when null. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer budget;

    /** Rust: {@code repair::RepairTarget}. */
    public static final class Target {
        public String test;
        /** {@code victim} or {@code brittle}. */
        public String kind;

        public List<List<String>> polluters = new ArrayList<>();
        public Map<String, List<String>> cleaners = new LinkedHashMap<>();

        @SerializedName("state_setters")
        public List<List<String>> stateSetters = new ArrayList<>();

        @SerializedName("explanation_complete")
        public boolean explanationComplete;

        @SerializedName("failing_order")
        public List<String> failingOrder = new ArrayList<>();

        @SerializedName("original_order")
        public List<String> originalOrder = new ArrayList<>();
        /** Detection's first baseline run of the original order. */
        public List<ExperimentRecord.TestResult> baseline = new ArrayList<>();

        public List<FixSource> sources = new ArrayList<>();
        public String fingerprint;
        /** The other tests of its root cause, repaired with it by one patch. */
        public List<CauseMember> also = new ArrayList<>();
        /**
         * For a part of a split cause: candidates the cause before its split ran whole at a
         * placement, none of this part's tests passing; not run again. Null (absent) when none.
         */
        @SerializedName("ruled_out")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<RuledOut> ruledOut;
    }

    /** Rust: {@code repair::RuledOut}. */
    public static final class RuledOut {
        /** The source's name ({@link FixSource#test}). */
        public String source;
        /** {@code setup}, {@code polluter-teardown} or {@code test}. */
        public String placement;
        /** The polluter it cleaned after (victims), or null. */
        public String polluter;
        /** The experiment of the cause before its split. */
        public int experiment;
        /** That experiment's order. */
        public List<String> order = new ArrayList<>();
    }

    /** Rust: {@code repair::CauseMember}. */
    public static final class CauseMember {
        public String test;

        @SerializedName("failing_order")
        public List<String> failingOrder = new ArrayList<>();
    }

    /** Rust: {@code repair::FixSource}. */
    public static final class FixSource {
        public String test;
        /** How many statements it has. */
        public int statements;
        /** {@code setup}, {@code polluter-teardown}, {@code test}. */
        public List<String> placements = new ArrayList<>();
        /** Why it cannot be used, or null. */
        public String unusable;
        /** {@code test} or {@code reset-method}. */
        public String origin;
    }
}
