package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code audit_next} (Rust: {@code audit::AuditStep}; docs/audit.md). */
public final class AuditStep {
    /** {@code run}, {@code fixes} or {@code done}. */
    public String step;
    /** With {@code fixes}: the latent polluters to make candidate patches for. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public List<Wanted> wanted;
    /** With {@code run}: the experiment to run next. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Experiment experiment;
    /** With {@code run}: what it is, in words. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public String what;
    /** With {@code run}: what is left after it, in words. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public String left;
    /**
     * With {@code done}: what the audit found (Rust: {@code audit::AuditOutcome}), kept as JSON: it
     * goes into audit/report.json as the engine made it.
     */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public JsonObject outcome;

    public boolean isDone() {
        return "done".equals(step);
    }

    /** Whether the engine asks for candidate patches ({@link #wanted}) before it goes on. */
    public boolean wantsFixes() {
        return "fixes".equals(step);
    }

    /** Rust: {@code audit::FixWanted}. */
    public static final class Wanted {
        public String test;

        @SerializedName("class")
        public String className;

        public String field;
        public List<String> paths = new ArrayList<>();

        @SerializedName("before_capture")
        public String beforeCapture;

        @SerializedName("after_capture")
        public String afterCapture;
    }

    /** Rust: {@code audit::FixRef}: the candidate patch an experiment runs with. */
    public static final class FixRef {
        public String test;
        public String field;
        public String candidate;
    }

    /** Rust: {@code audit::AuditExperiment}. */
    public static final class Experiment {
        public int id;
        /**
         * {@code twice}, {@code confirm}, {@code capture-classes}, {@code initial-states}, {@code
         * capture-tests} or {@code fix}.
         */
        public String kind;

        public List<String> order = new ArrayList<>();
        /** The candidate a confirmation is about. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String test;

        @SerializedName("class_level")
        public boolean classLevel;

        @SerializedName("capture_tests")
        public List<String> captureTests = new ArrayList<>();

        @SerializedName("initialize_at")
        public List<InitializeAt> initializeAt = new ArrayList<>();

        /** With {@code fix}: the candidate patch whose class goes first on the classpath. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public FixRef fix;

        /** Whether the test JVM runs with the agent in audit mode. */
        public boolean usesAgent() {
            return !"twice".equals(kind);
        }
    }

    /** Rust: {@code audit::InitializeAt}. */
    public static final class InitializeAt {
        public int segment;

        @SerializedName("class")
        public String className;
    }
}
