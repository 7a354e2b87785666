package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Response of {@code detect_summary}, the core of report.json (Rust: {@code detect::Summary}; docs/detect.md). */
public final class Summary {
    public long seed;
    public String strategy;
    /** Tests listed in the suite (a dynamic container counts once). */
    @SerializedName("tests_total")
    public int testsTotal;
    /** Test results of one run of the suite (each invocation counts, as in mvn test); null before the baseline. */
    @SerializedName("results_per_run")
    public Integer resultsPerRun;
    /** Experiments in the history. */
    public int experiments;

    @SerializedName("rounds_run")
    public int roundsRun;

    @SerializedName("rounds_planned")
    public int roundsPlanned;
    /** Tests that failed in every baseline run and were not found flaky in a round, by id. */
    public List<FailingTest> failing = new ArrayList<>();
    /** Flaky tests, by id. */
    public List<FlakyTest> flaky = new ArrayList<>();
    /** Things the user should know about the run. */
    public List<String> notes = new ArrayList<>();
    /** Systematic strategies: pairs covered by the rounds that ran; absent for other strategies. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public PairsCovered pairs;
    /** Systematic strategies: what the whole schedule runs, and its predicted cost. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public PlanInfo plan;
    /** The shard this run was ({@code -Dodrust.shard=K/N}); absent for a whole run. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Shard shard;
    /** Where the experiments' time went; absent when no experiment record has its time. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public TimeSpent time;
    /** What the baseline and the rounds covered, and what may have escaped; absent before the baseline ran. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Coverage coverage;
    /** {@code targeted}: what its targeted rounds were planned to cover. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public TargetedInfo targeted;
    /** Each phase that ran: its experiments' time, and its prediction when it started. */
    public java.util.List<Estimate.PhaseTime> phases = new java.util.ArrayList<>();

    /** Rust: {@code detect::coverage::Coverage}. */
    public static final class Coverage {
        /** Distinct ordered pairs of tests that ran consecutively in the baseline or a round. */
        @SerializedName("pairs_run")
        public long pairsRun;
        /** Ordered pairs the framework can run consecutively. */
        @SerializedName("pairs_possible")
        public long pairsPossible;
        /** {@code targeted}: writer→reader pairs of static fields that ran consecutively, of all. */
        @SerializedName("state_pairs")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public PairsCovered statePairs;
        /** Rounds whose orders were drawn at random (targeted orders included). */
        @SerializedName("random_rounds")
        public int randomRounds;
        /** Per rate of failing random orders, the chance a victim passed every random round. */
        public List<Escape> escape = new ArrayList<>();
        /** One plain paragraph of the above. */
        public String text;
    }

    /** Rust: {@code detect::coverage::Escape}. */
    public static final class Escape {
        public double rate;
        public double chance;
    }

    /** Rust: {@code model::experiment::TimeSpent} (docs/protocol.md, "Detection"). */
    public static final class TimeSpent {
        public int experiments;

        @SerializedName("jvm_ms")
        public long jvmMs;

        @SerializedName("tests_ms")
        public long testsMs;

        @SerializedName("boot_ms")
        public long bootMs;

        @SerializedName("setup_ms")
        public long setupMs;

        @SerializedName("exit_ms")
        public long exitMs;

        @SerializedName("odrust_ms")
        public long odrustMs;
        /** Median start-up cost of one experiment in fresh JVMs (boot + setup + exit); absent when none reported its clock. */
        @SerializedName("cost0_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long cost0Ms;
        /** The medians of {@code [boot, setup, exit]}. */
        @SerializedName("cost0_parts_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public long[] cost0PartsMs;
        /** The same median over the orders in shared JVMs ({@code odrust.isolation=classloader}); absent without. */
        @SerializedName("cost0_shared_ms")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Long cost0SharedMs;
        /** The same in words. */
        public String text;
    }

    /** Rust: {@code detect::FailingTest}. */
    public static final class FailingTest {
        public String test;
        /** The message of its last baseline failure. */
        public String message;
    }

    /** One flaky test found (Rust: {@code detect::FlakyTest}). */
    public static final class FlakyTest {
        /**
         * Every {@link #kind} (Rust: {@code model::kind::FlakyKind}; {@code vocabulary}'s
         * {@code flaky_kinds}, which {@code ProtocolTest} checks this against).
         */
        public static final List<String> KINDS = List.of("victim", "brittle", "nod", "unclassified");

        /** Its id (an invocation id for a dynamic invocation). */
        public String test;
        /** {@code victim}, {@code brittle}, {@code nod} or {@code unclassified}. */
        public String kind;
        /** OD: the confirm-fail experiment; NOD: an experiment where it failed. */
        @SerializedName("failing_experiment")
        public int failingExperiment;
        /** OD: the confirm-pass experiment; NOD: an experiment where it passed. */
        @SerializedName("passing_experiment")
        public int passingExperiment;

        public String message;
        /** Alone runs, for a confirmed OD test whose alone runs are complete. */
        public AloneRuns alone;
        /** One plain sentence saying what was observed. */
        public String evidence;
        /** Victim: polluter groups (a single polluter is a group of one). */
        public List<List<String>> polluters = new ArrayList<>();
        /** Victim: the cleaners found for each single polluter. */
        public Map<String, List<String>> cleaners = new LinkedHashMap<>();
        /** Brittle: state-setter groups. */
        @SerializedName("state_setters")
        public List<List<String>> stateSetters = new ArrayList<>();
        /** Null when not computable. */
        @SerializedName("flake_rate")
        public FlakeRate flakeRate;

        @SerializedName("minimize_experiments")
        public int minimizeExperiments;
        /** True when every search its explanation needs ran to the end. */
        @SerializedName("minimize_complete")
        public boolean minimizeComplete;
        /** Victim: single polluters whose search for cleaners did not finish (cut short or not started). */
        @SerializedName("cleaners_unfinished")
        public List<String> cleanersUnfinished = new ArrayList<>();
        /** A merged report ({@code odrust:merge}): the shard whose experiments these are. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer shard;

        /** Victim or brittle: order-dependent and classified. */
        public boolean isOrderDependent() {
            return "victim".equals(kind) || "brittle".equals(kind);
        }
    }

    /** Rust: {@code detect::config::Shard}. */
    public static final class Shard {
        /** From 1. */
        public int index;

        public int count;
    }

    /** Rust: {@code detect::AloneRuns}. */
    public static final class AloneRuns {
        public int runs;
        public int passed;
    }

    /** Rust: {@code detect::PairsCovered}. */
    public static final class PairsCovered {
        public long covered;
        public long total;
    }
}
