package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;

/**
 * A detection strategy (Rust: {@code model::strategy::Strategy}); its JSON name is
 * {@link #toString()}. The plugin passes the user's {@code odrust.strategy} to the engine as given
 * (the engine checks it); this names the ones the plugin itself tests for. {@code ProtocolTest}
 * checks the list against the engine's {@code vocabulary}.
 */
public enum Strategy {
    @SerializedName("original")
    ORIGINAL("original"),
    @SerializedName("reverse")
    REVERSE("reverse"),
    @SerializedName("reverse-class")
    REVERSE_CLASS("reverse-class"),
    @SerializedName("random-class")
    RANDOM_CLASS("random-class"),
    @SerializedName("random-class-method")
    RANDOM_CLASS_METHOD("random-class-method"),
    @SerializedName("reverse-passing")
    REVERSE_PASSING("reverse-passing"),
    @SerializedName("tuscan")
    TUSCAN("tuscan"),
    @SerializedName("pairs-all")
    PAIRS_ALL("pairs-all"),
    @SerializedName("k-bounded")
    K_BOUNDED("k-bounded"),
    @SerializedName("dependence-aware")
    DEPENDENCE_AWARE("dependence-aware"),
    @SerializedName("targeted")
    TARGETED("targeted");

    private final String name;

    Strategy(String name) {
        this.name = name;
    }

    /** Whether {@code name} (a strategy as the user or a record gives it) is this one. */
    public boolean is(String name) {
        return this.name.equals(name);
    }

    /** Its name in JSON and on the command line ({@code k-bounded}). */
    @Override
    public String toString() {
        return name;
    }
}
