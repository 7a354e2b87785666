package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code check_run}: did the order that ran equal the requested one (Rust: {@code runcheck::RunCheck}). */
public final class RunCheck {
    public boolean honoured;
    /** Where the ran order first departs from the requested one; null when honoured. */
    @SerializedName("first_difference")
    public Difference firstDifference;
    /** Requested ids that never ran. */
    public List<String> missing = new ArrayList<>();
    /** Ran ids that were not requested. */
    public List<String> unexpected = new ArrayList<>();

    /** Rust: {@code runcheck::Difference}. */
    public static final class Difference {
        /** Position in the requested order. */
        public int index;
        /** Position in the ran order. */
        @SerializedName("ran_index")
        public int ranIndex;
        /** The requested id there, null past the end. */
        public String requested;
        /** The ran id there, null past the end. */
        public String ran;
    }
}
