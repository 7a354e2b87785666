package io.github.odrust.engine;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

/**
 * Every JSON setting of the plugin, in one place: what crosses to the engine ({@link #WIRE}) and
 * how each file odrust writes is laid out. No HTML escaping anywhere ({@code <} stays {@code <}).
 */
public final class Json {
    /** Requests and responses of the engine, and JSON lines on disk: nulls kept, one line. */
    public static final Gson WIRE = base().serializeNulls().create();

    /** Files for people to read (report.json, fidelity.json, ...): nulls kept, indented. */
    public static final Gson PRETTY =
            base().serializeNulls().setPrettyPrinting().create();

    /** Indented, nulls left out: suite.json and the diagnose files. */
    public static final Gson PRETTY_WITHOUT_NULLS = base().setPrettyPrinting().create();

    /**
     * Indented, nulls kept, Java field names written in snake_case: the plugin's own files bound to
     * classes without {@code @SerializedName} (result.json, repair.json).
     */
    public static final Gson PRETTY_SNAKE_CASE = base().setFieldNamingPolicy(
                    FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
            .serializeNulls()
            .setPrettyPrinting()
            .create();

    private Json() {}

    private static GsonBuilder base() {
        return new GsonBuilder().disableHtmlEscaping();
    }
}
