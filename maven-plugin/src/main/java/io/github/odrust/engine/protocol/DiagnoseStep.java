package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code diagnose_next} (Rust: {@code diagnose::DiagnoseStep}; docs/protocol.md, docs/diagnose.md). */
public final class DiagnoseStep {
    /** {@code run} or {@code done}. */
    public String step;
    /** With {@code run}: the experiment to run next. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Experiment experiment;
    /**
     * With {@code done}: the verdict (Rust: {@code diagnose::DiagnoseOutcome}), kept as JSON: it is
     * written to diagnose.json and report.json as the engine made it.
     */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public JsonObject outcome;

    public boolean isDone() {
        return "done".equals(step);
    }

    /** Rust: {@code diagnose::DiagnoseExperiment}. */
    public static final class Experiment {
        public int id;
        public String test;
        /** {@code capture-failing}, {@code capture-passing}, {@code capture-passing-again} or {@code restore}. */
        public String kind;

        public List<String> order = new ArrayList<>();
        /** Which start of the test to act before (1 = the first). */
        public int occurrence;

        public List<String> initialize = new ArrayList<>();

        @SerializedName("restore_from")
        public String restoreFrom;

        public List<String> fields = new ArrayList<>();
        /** The earliest point to act at: {@code class}, {@code instance} or {@code test}. */
        public String point;
    }
}
