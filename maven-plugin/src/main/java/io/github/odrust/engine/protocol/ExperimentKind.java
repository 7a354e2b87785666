package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;

/**
 * What a detection experiment is for (Rust: {@code model::experiment::ExperimentKind}); its JSON
 * name is {@link #toString()}. {@code ProtocolTest} checks the list against the engine's
 * {@code vocabulary}.
 */
public enum ExperimentKind {
    @SerializedName("baseline")
    BASELINE("baseline"),
    @SerializedName("round")
    ROUND("round"),
    @SerializedName("confirm-fail")
    CONFIRM_FAIL("confirm-fail"),
    @SerializedName("confirm-pass")
    CONFIRM_PASS("confirm-pass"),
    @SerializedName("alone")
    ALONE("alone"),
    @SerializedName("polluter-search")
    POLLUTER_SEARCH("polluter-search"),
    @SerializedName("polluter-pair")
    POLLUTER_PAIR("polluter-pair"),
    @SerializedName("cleaner")
    CLEANER("cleaner"),
    @SerializedName("setter-search")
    SETTER_SEARCH("setter-search"),
    @SerializedName("setter-pair")
    SETTER_PAIR("setter-pair");

    private final String name;

    ExperimentKind(String name) {
        this.name = name;
    }

    /** Whether it belongs to the explanation (minimization) phase (Rust: {@code is_minimize}). */
    public boolean isMinimize() {
        switch (this) {
            case POLLUTER_SEARCH:
            case POLLUTER_PAIR:
            case CLEANER:
            case SETTER_SEARCH:
            case SETTER_PAIR:
                return true;
            default:
                return false;
        }
    }

    /** Its name in JSON and in messages ({@code confirm-fail}). */
    @Override
    public String toString() {
        return name;
    }
}
