package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;

/**
 * What the targeted rounds of the {@code targeted} strategy cover (Rust:
 * {@code schedule::targeted::TargetedInfo}): {@code targeted} of {@code detect_next} (first round)
 * and {@code detect_summary}.
 */
public final class TargetedInfo {
    /** Targeted orders: rounds 1 to this. */
    public long orders;
    /** Writer→reader pairs of static fields the framework can run consecutively. */
    public long pairs;
    /** Of those, consecutive in the original order (they ran in the baseline). */
    @SerializedName("in_baseline")
    public long inBaseline;
    /** Of those, covered by the targeted orders. */
    public long covered;
    /** Static fields that count. */
    public long fields;
    /** Tests without a recording, left to the random rounds. */
    public long unrecorded;
    /** Tests of test classes new or changed since the last odrust:incremental run. */
    @SerializedName("new_tests")
    public long newTests;
    /** Pairs of a new test and a test it shares a recorded field with, both directions. */
    @SerializedName("new_pairs")
    public long newPairs;
    /** Of those, the ones in a targeted order or consecutive in the baseline. */
    @SerializedName("new_covered")
    public long newCovered;
    /** One sentence of the above. */
    public String text;
}
