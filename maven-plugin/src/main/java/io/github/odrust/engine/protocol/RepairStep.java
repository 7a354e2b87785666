package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code repair_next} (Rust: {@code repair::RepairStep}; docs/protocol.md, docs/repair.md). */
public final class RepairStep {
    /** {@code run} or {@code done}. */
    public String step;
    /** With {@code run}: the experiment to run next. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Experiment experiment;
    /**
     * With {@code run}, when it is a check of a minimal patch: the checks still to run, this one
     * included (the repair ends after them when they pass); null otherwise.
     */
    @SerializedName("checks_left")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer checksLeft;
    /** With {@code done}: the verdict. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Outcome outcome;

    public boolean isDone() {
        return "done".equals(step);
    }

    /** Rust: {@code repair::RepairExperiment}. */
    public static final class Experiment {
        public int id;
        public String test;
        /** The cleaner or state-setter whose statements are used; null for the unpatched run. */
        public String source;

        public String polluter;
        /** {@code setup} or {@code test}; null for the unpatched run. */
        public String placement;

        public List<Integer> statements = new ArrayList<>();
        /** {@code unpatched}, {@code failing-order}, {@code alone}, {@code recorded-failing-order}, {@code class}, {@code original-order}. */
        public String check;

        public List<String> order = new ArrayList<>();
        /**
         * Whether it may run in a shared JVM (odrust.isolation=classloader, a module that passed
         * the isolation check): minimization only; absent when not.
         */
        @com.google.gson.annotations.JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean shareable;
    }

    /** Rust: {@code repair::RepairOutcome}. */
    public static final class Outcome {
        public String test;
        public String kind;
        /** {@code patched}, {@code rejected}, {@code no-fix-source}, {@code not-reproduced}, {@code unfinished}. */
        public String status;

        public String reason;
        public SourceRef source;
        public String placement;
        public List<Integer> statements = new ArrayList<>();

        @SerializedName("statements_total")
        public int statementsTotal;

        public List<CheckResult> verification = new ArrayList<>();
        public int experiments;

        @SerializedName("compile_errors")
        public int compileErrors;

        public List<Tried> tried = new ArrayList<>();
    }

    /** Rust: {@code repair::SourceRef}. */
    public static final class SourceRef {
        /** {@code cleaner} or {@code state-setter}. */
        public String kind;

        public String test;
        public String polluter;
    }

    /** Rust: {@code repair::CheckResult}. */
    public static final class CheckResult {
        public String check;
        public List<String> order = new ArrayList<>();
        public boolean passed;

        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String detail;

        public int experiment;
    }

    /** Rust: {@code repair::Tried}. */
    public static final class Tried {
        public SourceRef source;
        public String placement;
        public List<Integer> statements = new ArrayList<>();
        public String why;
    }
}
