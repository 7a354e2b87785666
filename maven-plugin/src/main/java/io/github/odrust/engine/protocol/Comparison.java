package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Response of {@code compare_outcomes} (Rust: {@code compare::Comparison}). */
public final class Comparison {
    /** True when every test is on both sides with the same outcome. */
    public boolean same;
    /** Tests on both sides with different outcomes, in expected order. */
    public List<Difference> differences = new ArrayList<>();
    /** Tests only on the expected side. */
    @SerializedName("only_expected")
    public List<String> onlyExpected = new ArrayList<>();
    /** Tests only on the actual side. */
    @SerializedName("only_actual")
    public List<String> onlyActual = new ArrayList<>();

    /** Rust: {@code compare::OutcomeDifference}. */
    public static final class Difference {
        public String test;
        public String expected;
        public String actual;
    }
}
