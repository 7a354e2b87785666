package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code id_next} (Rust: {@code idtests::IdRequest}; docs/idtests.md). */
public final class IdRequest {
    public List<String> tests = new ArrayList<>();
    public List<Long> seeds = new ArrayList<>();

    @SerializedName("clean_runs")
    public int cleanRuns;

    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer budget;

    public String fingerprint;
    /**
     * The ID experiments run so far ({@code id/experiments.jsonl}). Rust {@code idtests::IdRecord}
     * flattens the experiment into the record, so serde cannot refuse unknown fields there; they
     * stay JSON as the file has them.
     */
    public List<JsonObject> history = new ArrayList<>();

    @SerializedName("next_id")
    public Integer nextId;

    /** A candidate's runs alone may run in shared JVMs, each pin then confirmed in a fresh one. */
    public boolean shared;
}
