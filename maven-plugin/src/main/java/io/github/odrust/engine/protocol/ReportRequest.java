package io.github.odrust.engine.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.Map;
import java.util.TreeMap;

/**
 * Request of {@code report} (Rust: {@code report::ReportRequest}): build report.json from a
 * detection's summary ({@link #build}), or write one already written again ({@link #report}); the
 * answer is {@link ReportTexts}. The engine owns report.json's schema and version.
 */
public final class ReportRequest {
    /**
     * report.json's schema version, as the engine writes it (Rust: {@code report::REPORT_SCHEMA_VERSION};
     * {@code vocabulary}'s {@code report_schema_version}, which {@code ProtocolTest} checks this against):
     * what odrust:repair and odrust:diagnose read.
     */
    public static final int SCHEMA_VERSION = 2;

    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Build build;
    /** report.json as written (Rust: {@code report::ReportFile}), e.g. with a diagnosis added. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public JsonObject report;

    /** A request that builds report.json. */
    public static ReportRequest build(Build build) {
        ReportRequest r = new ReportRequest();
        r.build = build;
        return r;
    }

    /** A request that writes {@code report} (report.json's object) again. */
    public static ReportRequest rewrite(JsonObject report) {
        ReportRequest r = new ReportRequest();
        r.report = report;
        return r;
    }

    /** Rust: {@code report::file::BuildRequest}. */
    public static final class Build {
        /** {@code detect_summary}'s (or {@code detect_merge}'s) summary, as the engine answered it. */
        public JsonObject summary;

        public String module;

        @SerializedName("odrust_version")
        public String odrustVersion;
        /** False for a report written while the run goes on. */
        public boolean complete;
        /** How to invoke odrust's reproduce goal on the project, e.g. {@code odrust:reproduce}. */
        @SerializedName("reproduce_goal")
        public String reproduceGoal;
        /** Per run (0: this one; K: shard K of a merge), its order files' directory as the user sees it. */
        public Map<Integer, String> orders = new TreeMap<>();
        /** {@code odrust:merge}: the shards as {@code detect_merge} answered them. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public JsonArray shards;
    }
}
