package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;

/** Request of {@code audit_report} (Rust: {@code report::AuditReportRequest}; docs/audit.md). */
public final class AuditReportRequest {
    public String module;
    /** How many tests were audited. */
    public int tests;
    /** The outcome {@code audit_next} answered with, as it came. */
    public JsonObject outcome;
    /** How to rerun an order; the engine fills in {@code {order}}. */
    @SerializedName("reproduce_command")
    public String reproduceCommand;

    public AuditReportRequest(String module, int tests, JsonObject outcome, String reproduceCommand) {
        this.module = module;
        this.tests = tests;
        this.outcome = outcome;
        this.reproduceCommand = reproduceCommand;
    }
}
