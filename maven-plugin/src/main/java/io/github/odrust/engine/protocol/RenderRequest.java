package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Request of {@code render_report} (Rust: {@code protocol::RenderRequest}): the part of
 * report.json the HTML report and the Surefire XML are made of.
 */
public final class RenderRequest {
    public Report report;

    /** The engine's part of report.json ({@code odrust_version}, {@code shards}, ... are not read). */
    public RenderRequest(JsonObject reportJson) {
        this.report = Json.WIRE.fromJson(reportJson, Report.class);
    }

    /** Rust: {@code report::Report}. */
    public static final class Report {
        @SerializedName("schema_version")
        public int schemaVersion;

        public String module;
        public Long seed;
        public String strategy;

        @SerializedName("tests_total")
        public Integer testsTotal;

        @SerializedName("results_per_run")
        public Integer resultsPerRun;

        public Integer experiments;

        @SerializedName("rounds_run")
        public Integer roundsRun;

        @SerializedName("rounds_planned")
        public Integer roundsPlanned;

        public List<Summary.FailingTest> failing = new ArrayList<>();
        /**
         * The findings with the files the plugin added ({@code failing_order}, {@code reproduce},
         * ...): Rust {@code report::ReportEntry} flattens a {@code detect::FlakyTest} into it, so
         * serde cannot refuse unknown fields there; they stay JSON as report.json has them.
         */
        public List<JsonObject> flaky = new ArrayList<>();

        public List<String> notes = new ArrayList<>();
        /** True when absent. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Boolean complete;

        public Explanations explanations;
        public Summary.PairsCovered pairs;
        public Summary.TimeSpent time;
        public Coverage coverage;
    }

    /** Rust: {@code report::Explanations}. */
    public static final class Explanations {
        public int explained;
        public int complete;
    }

    /** Rust: {@code report::ReportCoverage}: only the paragraph. */
    public static final class Coverage {
        public String text;
    }
}
