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
        /** The confirmed diagnosis of another test of its root cause, verified for it first. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public Shared shared;
        /** Classes of the module its class cannot reach: their fields are listed last. */
        public List<String> unreachable = new ArrayList<>();
    }

    /** Rust: {@code diagnose::SharedDiagnosis}. */
    public static final class Shared {
        public String test;

        @SerializedName("passing_capture")
        public String passingCapture;

        @SerializedName("polluted_state")
        public List<String> pollutedState = new ArrayList<>();
        /** Its verdict's fields, as the engine wrote them. */
        public com.google.gson.JsonArray fields = new com.google.gson.JsonArray();
        /** Where its captures acted ({@code class}, {@code instance}, {@code test}); null when unknown. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String point;

        /** The shared diagnosis of a confirmed verdict (diagnose_next's outcome), or null when it is not one. */
        public static Shared of(JsonObject verdict) {
            if (verdict == null
                    || !"confirmed".equals(verdict.get("status").getAsString())
                    || !verdict.has("passing_capture")
                    || verdict.get("passing_capture").isJsonNull()) {
                return null;
            }
            Shared s = new Shared();
            s.test = verdict.get("test").getAsString();
            s.passingCapture = verdict.get("passing_capture").getAsString();
            verdict.getAsJsonArray("polluted_state").forEach(f -> s.pollutedState.add(f.getAsString()));
            s.fields = verdict.getAsJsonArray("fields").deepCopy();
            if (verdict.has("point") && !verdict.get("point").isJsonNull()) {
                s.point = verdict.get("point").getAsString();
            }
            return s.pollutedState.isEmpty() ? null : s;
        }
    }
}
