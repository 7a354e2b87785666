package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import java.util.ArrayList;
import java.util.List;

/** One experiment the planner asks for: an order to run (Rust: {@code detect::Experiment}). */
public final class Experiment {
    /** Its position in the history, from 1 (the record that echoes it must carry the same id). */
    public int id;
    /**
     * {@code baseline}, {@code round}, {@code confirm-fail}, {@code confirm-pass}, {@code alone}, or a
     * minimization kind ({@code polluter-search}, {@code polluter-pair}, {@code cleaner},
     * {@code setter-search}, {@code setter-pair}).
     */
    public ExperimentKind kind;
    /** The round (from 1) for {@code round}, the round being confirmed for {@code confirm-*}; null otherwise. */
    public Integer round;
    /** How the order was made ({@code original} or a strategy name); null for alone runs and minimization. */
    public String strategy;
    /** The test ids to run, in order. */
    public List<String> order = new ArrayList<>();
    /** The tests the experiment is about (confirmations, alone runs, minimization: the OD test first). */
    public List<String> targets = new ArrayList<>();
    /**
     * Whether it may run in a shared JVM with fresh class loaders once the module passed the
     * isolation check ({@code odrust.isolation=classloader}, docs/isolation.md): rounds,
     * explanation experiments and an OD test's alone runs after its first; never the baseline,
     * confirmations, an OD test's first alone run or the fresh-JVM run of a claim a shared JVM
     * showed. Absent when false.
     */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Boolean shareable;
    /**
     * {@code detect_next}'s batch: the order already cut into segments, as {@code plan_order} would
     * cut it (Rust: {@code detect::PlannedExperiment}), so running it takes no second engine call;
     * null when the engine could not resolve it (then {@code plan_order} says why).
     */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public List<PlanOrderResponse.Segment> segments;

    /** The plan {@code plan_order} would give for this experiment's order, or null when not carried. */
    public PlanOrderResponse plan() {
        if (segments == null) {
            return null;
        }
        PlanOrderResponse plan = new PlanOrderResponse();
        plan.order = new ArrayList<>(order);
        plan.segments = new ArrayList<>(segments);
        return plan;
    }
}
