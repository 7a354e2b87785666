package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code reset_methods} (Rust: {@code repair::ResetRequest}; docs/repair.md). */
public final class ResetRequest {
    /** The module's class directories. */
    @SerializedName("class_dirs")
    public List<String> classDirs = new ArrayList<>();

    public FieldId field;
    /** Fields inside it that differ (the diff's paths). */
    @SerializedName("inner_fields")
    public List<String> innerFields = new ArrayList<>();
    /** The test class the reset would be called from ({@code setup}, {@code test} placements). */
    @SerializedName("test_class")
    public String testClass;
    /** The polluter's class ({@code polluter-teardown}); null for no such placement. */
    @SerializedName("polluter_class")
    public String polluterClass;
    /** The diagnosis's passing capture: the value a direct restore sets the field back to; null for none. */
    @SerializedName("passing_capture")
    public String passingCapture;
    /** The diagnosis's failing capture (a collection already there is refilled in place); may be null. */
    @SerializedName("failing_capture")
    public String failingCapture;
    /** How many candidates at most; null for the engine's default. */
    public Integer limit;

    /** Rust: {@code repair::FieldId}. */
    public static final class FieldId {
        @SerializedName("class")
        public String className;

        public String name;

        public FieldId(String className, String name) {
            this.className = className;
            this.name = name;
        }
    }
}
