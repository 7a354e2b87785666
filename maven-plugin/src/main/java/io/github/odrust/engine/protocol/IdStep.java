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

    /** With {@code run}: where the run stands (Rust: {@code idtests::IdProgress}). */
    @com.google.gson.annotations.JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Progress progress;

    /** Rust: {@code idtests::IdProgress}. */
    public static final class Progress {
        /** Phase 1's runs (clean and shuffled) done. */
        @com.google.gson.annotations.SerializedName("phase1_done")
        public int phase1Done;
        /** Phase 1's runs in all. */
        @com.google.gson.annotations.SerializedName("phase1_total")
        public int phase1Total;
        /** Candidates to search, once phase 1 is done; null before. */
        @com.google.gson.annotations.JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer candidates;
        /** The candidate being searched (from 1), once phase 1 is done. */
        public int candidate;
        /** The experiments a candidate's search may take. */
        public int budget;
        /**
         * Once phase 1 is done: the experiments predicted from this one to the end of the searches
         * (null before, or from an engine that does not say).
         */
        @com.google.gson.annotations.SerializedName("experiments_left")
        @com.google.gson.annotations.JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer experimentsLeft;
        /** Of {@link #experimentsLeft}, those predicted in fresh JVMs; null when not said. */
        @com.google.gson.annotations.SerializedName("fresh_left")
        @com.google.gson.annotations.JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer freshLeft;
    }

    /** Rust: {@code idtests::OnlyCall}: a call named by its site and its number among that site's calls. */
    public static final class OnlyCall {
        /** From 1. */
        public long nth;
        /** {@code HashSet.iterator at com.a.Foo.names:12}. */
        public String site;
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
         * Instead of {@link #only}: shuffle the {@code nth} counted call of one site, whatever its
         * number ({@code confirm-pin} of a pin found in a shared JVM); absent otherwise.
         */
        @com.google.gson.annotations.SerializedName("only_call")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public OnlyCall onlyCall;

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
