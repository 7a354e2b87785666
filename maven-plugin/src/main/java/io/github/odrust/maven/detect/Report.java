package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Cause;
import io.github.odrust.engine.protocol.Summary;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code report.json} (docs/detect.md) as the plugin reads it back: the engine's summary, plus
 * what {@link ReportWriter} adds: the module, and per flaky test its order files and reproduce command.
 */
public final class Report {
    /** The report as written to report.json. */
    public final JsonObject json;
    /** The engine's summary the report is made of. */
    public final Summary summary;
    /** {@code groupId:artifactId}. */
    public final String module;
    /** Per entry of {@code summary.flaky}, at the same index: what the report adds to it. */
    public final List<Links> links;
    /** The OD tests grouped by root cause. */
    public final List<Cause> causes;

    private Report(JsonObject json, Summary summary, Added added) {
        this.json = json;
        this.summary = summary;
        this.module = added.module;
        this.links = added.flaky;
        this.causes = added.causes;
    }

    /** Binds a report object (as {@link ReportWriter#report} makes it). */
    public static Report of(JsonObject json) {
        Added added = Json.WIRE.fromJson(json, Added.class);
        return new Report(json, Json.WIRE.fromJson(json, Summary.class), added);
    }

    /** What report.json adds to a flaky entry of the summary. */
    public static final class Links {
        /** The order file where it failed, relative to the module when inside it; null when none. */
        @SerializedName("failing_order")
        public String failingOrder;
        /** The order file where it passed. */
        @SerializedName("passing_order")
        public String passingOrder;
        /** A command that reproduces the failure. */
        public String reproduce;
    }

    /** The report's own fields, beside the summary's. */
    private static final class Added {
        String module;
        List<Links> flaky = new ArrayList<>();
        List<Cause> causes = new ArrayList<>();
    }

    /** The cause {@code test} belongs to, or null. */
    public Cause causeOf(String test) {
        return causes.stream().filter(c -> c.tests.contains(test)).findFirst().orElse(null);
    }
}
