package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/**
 * What is left of a detection run, phase by phase, at the cost its own experiments showed (Rust:
 * {@code detect::phases::Estimate}; docs/detect.md, "Estimates"). Times are experiment time: a
 * JVM's and odrust's own around it, one experiment after the other.
 */
public final class Estimate {
    /** The phases after the baseline this run has, in the order they run. */
    public List<Phase> phases = new ArrayList<>();
    /** The predicted time of everything left. */
    @SerializedName("left_ms")
    public long leftMs;
    /** While rounds may still find OD tests: what each one found adds. */
    @SerializedName("per_od_test")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public PerOdTest perOdTest;

    /** One phase: what ran and what is left (Rust: {@code PhaseEstimate}). */
    public static final class Phase {
        /** rounds, confirm, alone or minimize. */
        public String phase;
        /** Experiments of the phase run so far. */
        public int done;
        /** Experiments still to run: counted when {@code counted}, else predicted. */
        public int left;
        /** Whether {@code left} is a count rather than a prediction. */
        public boolean counted;

        @SerializedName("spent_ms")
        public long spentMs;

        @SerializedName("left_ms")
        public long leftMs;
        /** measured, model or unknown. */
        public String basis;
        /** Of {@code left}, the rounds predicted to run in shared JVMs (after the isolation check); null: none. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer shared;
        /** Their part of {@code leftMs}; null: none. */
        @SerializedName("shared_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long sharedMs;
    }

    /** What one more OD test adds: its alone runs and its explanation experiments (Rust: {@code PerOdTest}). */
    public static final class PerOdTest {
        public int alone;

        @SerializedName("alone_ms")
        public long aloneMs;

        public int explain;

        @SerializedName("explain_ms")
        public long explainMs;
    }

    /** A phase's prediction at its start against what it cost (Rust: {@code PhaseTime}). */
    public static final class PhaseTime {
        public String phase;
        public int experiments;

        @SerializedName("actual_ms")
        public long actualMs;

        @SerializedName("predicted_experiments")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer predictedExperiments;

        @SerializedName("predicted_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long predictedMs;

        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String basis;
        /** "explanations: 199 experiments in 9.5 min (predicted at its start: 150 in 7 min)". */
        public String text;
    }
}
