package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code diagnose_next} (Rust: {@code diagnose::DiagnoseRequest}; docs/diagnose.md). */
public final class DiagnoseRequest {
    public Target target;
    /**
     * This test's diagnose records. Rust {@code diagnose::DiagnoseRecord} flattens the experiment
     * into the record, so serde cannot refuse unknown fields there; they stay JSON.
     */
    public List<JsonObject> history = new ArrayList<>();

    @SerializedName("next_id")
    public Integer nextId;

    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer budget;

    /** Rust: {@code diagnose::DiagnoseTarget}. */
    public static final class Target {
        public String test;
        /** {@code victim} or {@code brittle}. */
        public String kind;

        public List<List<String>> polluters = new ArrayList<>();

        @SerializedName("state_setters")
        public List<List<String>> stateSetters = new ArrayList<>();

        public String fingerprint;
    }
}
