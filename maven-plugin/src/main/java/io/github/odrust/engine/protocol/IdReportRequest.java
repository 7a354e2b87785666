package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;

/** Request of {@code id_report} (Rust: {@code report::IdReportRequest}). */
public final class IdReportRequest {
    public String module;
    /** The outcome {@code id_next} answered with, as it came. */
    public JsonObject outcome;
    /** How to rerun one experiment; the engine fills in its parameters. */
    @SerializedName("reproduce_command")
    public String reproduceCommand;

    public IdReportRequest(String module, JsonObject outcome, String reproduceCommand) {
        this.module = module;
        this.outcome = outcome;
        this.reproduceCommand = reproduceCommand;
    }
}
