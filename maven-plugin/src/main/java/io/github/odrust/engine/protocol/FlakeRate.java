package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;

/** The flake rates of one OD test (Rust: {@code flakerate::FlakeRate}; docs/flake-rate.md). */
public final class FlakeRate {
    /** Probability that it fails in a uniformly random order of all tests. */
    @SerializedName("all_orders")
    public Double allOrders;
    /** Probability that it fails in a uniformly random class-compatible order. */
    @SerializedName("class_compatible")
    public Double classCompatible;
    /** Probability that the reverse of a passing class-compatible order fails; null when no order passes. */
    @SerializedName("reverse_of_passing")
    public Double reverseOfPassing;
    /** {@code formula}, {@code exact} or {@code sampled}. */
    public String method;
    /** For {@code formula}: which closed form; null otherwise. */
    @SerializedName("case")
    public String formulaCase;
    /** For {@code sampled}: the 95% intervals; null otherwise. */
    public Ci95 ci95;
    /** For {@code sampled}: orders sampled per rate; null otherwise. */
    public Long samples;
    /** Set when not every polluter and cleaner (state-setter) is known; absent when complete. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Incomplete incomplete;

    /** What an incomplete rate still says (Rust: {@code flakerate::Incomplete}). */
    public static final class Incomplete {
        public String reason;
        /** The rates above are upper bounds of the real ones. */
        @SerializedName("upper_bound")
        public boolean upperBound;
        /** Lower bounds of the real rates, when one follows; null otherwise. */
        @SerializedName("lower_bound")
        public Bound lowerBound;
    }

    /** A bound of the rates (Rust: {@code flakerate::RateBound}). */
    public static final class Bound {
        @SerializedName("all_orders")
        public double allOrders;

        @SerializedName("class_compatible")
        public double classCompatible;
    }

    /** Wilson 95% confidence intervals of sampled rates (Rust: {@code flakerate::Ci95}). */
    public static final class Ci95 {
        @SerializedName("all_orders")
        public double[] allOrders;

        @SerializedName("class_compatible")
        public double[] classCompatible;

        @SerializedName("reverse_of_passing")
        public double[] reverseOfPassing;
    }
}
