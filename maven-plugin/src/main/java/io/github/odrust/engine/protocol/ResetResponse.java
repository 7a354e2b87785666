package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code reset_methods} (Rust: {@code repair::ResetResponse}; docs/repair.md). */
public final class ResetResponse {
    /** The candidates, best first. */
    public List<Candidate> candidates = new ArrayList<>();
    /** How many class files were read. */
    @SerializedName("classes_read")
    public int classesRead;
    /** Whether the field's class is among them and declares the field. */
    @SerializedName("field_found")
    public boolean fieldFound;
    /** Class files that could not be read. */
    public List<Unreadable> unreadable = new ArrayList<>();
    /** Why the field's passing value gave no {@code passing-value} candidate; null when one was made or none asked. */
    @SerializedName("direct_restore_refused")
    public String directRestoreRefused;

    /** Rust: {@code repair::ResetCandidate}. */
    public static final class Candidate {
        /** Its statements joined by spaces (one statement but for a refill). */
        public String statement;
        /** One Java statement each. */
        public List<String> statements = new ArrayList<>();
        /** The method it calls ({@code com.acme.Prices.reset()V}), null for field statements. */
        public String method;
        /** {@code static-method}, {@code instance-method}, {@code field-assignment}, {@code field-clear}, {@code passing-value}. */
        public String kind;
        /** Why it may reset the field. */
        public String why;
        /** Where it compiles, in the order to try ({@code setup}, {@code polluter-teardown}, {@code test}). */
        public List<String> placements = new ArrayList<>();
    }

    /** Rust: {@code repair::reset::Unreadable}. */
    public static final class Unreadable {
        public String path;
        public String error;
    }
}
