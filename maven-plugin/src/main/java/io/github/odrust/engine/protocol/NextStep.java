package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;

/** Response of {@code detect_next} (Rust: {@code detect::NextStep}). */
public final class NextStep {
    /** The next experiment, or null when detection is complete. */
    public Experiment experiment;
    /**
     * The experiments that can run now, at the same time, {@code experiment} first: none depends
     * on another's outcome; their records are appended in this order.
     */
    public java.util.List<Experiment> batch = new java.util.ArrayList<>();
    /** How far detection is. */
    public Progress progress;
    /** Once the baseline is done: what is left, phase by phase, and its predicted time. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Estimate estimate;
    /** Systematic strategies, when the next experiment is the first round: the schedule's plan. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public PlanInfo plan;
    /** {@code targeted}, when the next experiment is the first round: what its targeted rounds cover. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public TargetedInfo targeted;

    /** Rust: {@code detect::Progress}. */
    public static final class Progress {
        /** The phase of the next experiment: baseline, rounds, confirm, alone, minimize, or done. */
        public String phase;

        @SerializedName("rounds_done")
        public int roundsDone;

        @SerializedName("rounds_total")
        public int roundsTotal;
        /** Tests confirmed order-dependent so far. */
        @SerializedName("od_found")
        public int odFound;
        /** Tests found NOD so far. */
        @SerializedName("nod_found")
        public int nodFound;
        /** Candidates waiting for their confirmation runs. */
        public int candidates;
        /** Alone runs still to run for the OD tests found so far (at most). */
        @SerializedName("alone_left")
        public int aloneLeft;
        /** Explanation experiments run so far. */
        @SerializedName("explain_spent")
        public int explainSpent;
        /** The run's budget of explanation experiments; 0 with minimization off. */
        @SerializedName("explain_budget")
        public int explainBudget;
    }
}
