package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/**
 * Request of {@code detect_next} and {@code detect_summary} (Rust: {@code protocol::DetectRequest};
 * docs/protocol.md, "Detection" and "Sessions").
 */
public final class DetectRequest {
    public Config config;
    /** Required, but for a session continued ({@link #historyFrom} above 0). */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Suite suite;
    /** The whole history; in a session, the records from {@link #historyFrom} on. */
    public List<ExperimentRecord> history = new ArrayList<>();
    /** The engine's session of the run, if it keeps one. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public String session;
    /** In a session: how many records came before {@link #history}. */
    @SerializedName("history_from")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer historyFrom;

    /**
     * The detection settings (Rust: {@code detect::config::RawConfig}). A null setting is left out
     * and the engine uses its default ({@link Vocabulary#detectDefaults}).
     */
    public static final class Config {
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String strategy;

        public Integer rounds;
        public Long seed;

        @SerializedName("baseline_tries")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer baselineTries;

        @SerializedName("alone_runs")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer aloneRuns;

        @SerializedName("stop_rounds")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean stopRounds;

        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer k;

        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean minimize;

        @SerializedName("minimize_budget")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer minimizeBudget;

        @SerializedName("cost_aware")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean costAware;
        /** {@code K/N}: this run is shard K of N of the plan's rounds. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String shard;
        /** Tests whose recorded dependences are ignored ({@code dependence-aware}, {@code targeted}). */
        @SerializedName("dependence_free")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<String> dependenceFree;
        /** The OD tests to explain; all when absent. */
        @SerializedName("minimize_only")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<String> minimizeOnly;
        /** {@code targeted}: test classes new or changed (odrust:incremental), stressed first; none when absent. */
        @SerializedName("new_classes")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public List<String> newClasses;
        /**
         * {@code odrust.isolation=classloader}: the rounds run in fresh JVMs before the isolation
         * check; the estimates price the later ones as shared. Absent: no shared JVMs.
         */
        @SerializedName("shared_after_rounds")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Integer sharedAfterRounds;
    }
}
