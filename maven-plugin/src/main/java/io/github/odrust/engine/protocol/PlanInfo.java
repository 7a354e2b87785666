package io.github.odrust.engine.protocol;

import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;

/**
 * What a systematic strategy's schedule runs and its predicted cost (Rust:
 * {@code dependence::PlanInfo}); the {@code plan} of {@code detect_next} and {@code detect_summary}.
 */
public final class PlanInfo {
    public String strategy;
    /** Orders (JVM starts). */
    public long orders;
    /** Test executions of all orders together. */
    public long executions;
    /** Ordered pairs the schedule covers. */
    public long pairs;
    /** {@code cost0_ms × orders + Σ test times}, when a cost model is known. */
    @SerializedName("predicted_ms")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Long predictedMs;
    /** The fixed cost per order the prediction used. */
    @SerializedName("cost0_ms")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Long cost0Ms;
    /** {@code dependence-aware}: the tuscan schedule of the same suite, for comparison. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public PlanInfo tuscan;
    /** {@code dependence-aware}: units without a recording (taken to touch everything). */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer unrecorded;
    /** {@code dependence-aware}: static fields that count. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer fields;
    /** {@code dependence-aware}: true when it runs tuscan's orders; absent (null here) otherwise. */
    @SerializedName("uses_tuscan")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Boolean usesTuscan;
    /** {@code dependence-aware} with tuscan's orders: how many of the pairs may interact. */
    @SerializedName("dependent_pairs")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Long dependentPairs;

    public boolean usesTuscan() {
        return Boolean.TRUE.equals(usesTuscan);
    }
}
