package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.List;

/**
 * Response of {@code vocabulary} (Rust: {@code protocol::Vocabulary}): the engine's names and
 * defaults, so the plugin keeps no copy of them.
 */
public final class Vocabulary {
    public List<String> strategies;

    @SerializedName("systematic_strategies")
    public List<String> systematicStrategies;
    /** Strategies whose baseline runs record static field accesses (the jvm-agent as a Java agent). */
    @SerializedName("recording_strategies")
    public List<String> recordingStrategies;
    /** For each recording strategy, what it does when its baseline recorded nothing (for the warning). */
    @SerializedName("without_recording")
    public java.util.Map<String, String> withoutRecording = new java.util.HashMap<>();

    @SerializedName("experiment_kinds")
    public List<String> experimentKinds;

    @SerializedName("minimize_kinds")
    public List<String> minimizeKinds;

    @SerializedName("error_codes")
    public List<String> errorCodes;

    @SerializedName("user_error_codes")
    public List<String> userErrorCodes;

    @SerializedName("detect_defaults")
    public DetectDefaults detectDefaults;
    /** The version of report.json's schema the engine writes. */
    @SerializedName("report_schema_version")
    public int reportSchemaVersion;
    /** Every kind of flaky test a report names. */
    @SerializedName("flaky_kinds")
    public List<String> flakyKinds;
    /** Every outcome a test has in a run's record ({@code RunResult.OUTCOMES} is the Java copy). */
    @SerializedName("run_outcomes")
    public List<String> runOutcomes;
    /** The outcomes that count as the test failing ({@code RunResult.FAILED_OUTCOMES}). */
    @SerializedName("failed_outcomes")
    public List<String> failedOutcomes;
    /** Experiments {@code odrust:repair} spends per flaky test when no budget is given. */
    @SerializedName("repair_budget_per_test")
    public int repairBudgetPerTest;

    /** What the engine assumes for a detection setting left out. */
    public static final class DetectDefaults {
        public String strategy;

        @SerializedName("baseline_tries")
        public int baselineTries;

        @SerializedName("alone_runs")
        public int aloneRuns;
        /** Explanation experiments per OD test to explain, pooled over the run, when no budget is given. */
        @SerializedName("minimize_budget_per_test")
        public int minimizeBudgetPerTest;

        public int k;
        /** {@code rounds} of each strategy when none are given (a systematic one: its whole schedule). */
        public java.util.Map<String, Integer> rounds = new java.util.HashMap<>();
    }
}
