package io.github.odrust.engine.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code id_next} (Rust: {@code idtests::IdStep}; docs/protocol.md, docs/id-tests.md). */
public final class IdStep {
    /** {@code run} or {@code done}. */
    public String step;
    /** With {@code run}: the experiment to run next. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Experiment experiment;
    /** With {@code done}: the verdicts (Rust: {@code idtests::IdOutcome}), kept as JSON for report.json. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public JsonObject outcome;

    public boolean isDone() {
        return "done".equals(step);
    }

    /** Rust: {@code idtests::IdExperiment}. */
    public static final class Experiment {
        public int id;
        /**
         * {@code clean}, {@code shuffled}, {@code alone-clean}, {@code alone}, {@code bisect},
         * {@code confirm}, {@code consistent} (every call permuted as {@link #consistentCall}) or
         * {@code confirm-pin} (a pin found in shared JVMs, in a fresh one).
         */
        public String kind;
        /** The candidate, for the per-test kinds. */
        public String test;

        public List<String> order = new ArrayList<>();
        /** {@code null}: a clean run. */
        public Long seed;
        /** Inclusive [from, to] ranges of counted calls to shuffle; empty: all. */
        public JsonArray only = new JsonArray();
        /** {@code consistent}: every counted call gets the permutation of this invocation. */
        @com.google.gson.annotations.SerializedName("consistent_call")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long consistentCall;

        /**
         * True: it may run in a shared JVM (the engine confirms what it finds there in a fresh
         * one); absent (null) otherwise, as the engine writes it.
         */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean shared;

        /** Whether it may run in a shared JVM. */
        public boolean mayShare() {
            return Boolean.TRUE.equals(shared);
        }
    }
}
