package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code plan_order}: an order resolved against the suite and cut into segments (Rust: {@code protocol::Plan}). */
public final class PlanOrderResponse {
    /** The resolved order: suite ids, in order. */
    public List<String> order = new ArrayList<>();
    /** The order cut into segments (one JUnit request each). */
    public List<Segment> segments = new ArrayList<>();
    /** Things the user should be told (e.g. a dotted id resolved). */
    public List<String> warnings = new ArrayList<>();

    /** One JUnit request: tests of one class record, in order (Rust: {@code order::Segment}). */
    public static final class Segment {
        @SerializedName("class")
        public String className;
        /** {@code junit4} or {@code junit5}. */
        public String framework;

        public List<String> tests = new ArrayList<>();
        /** Why the segment was cut from the previous one of the same class; absent when the class simply changed. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String reason;
    }
}
