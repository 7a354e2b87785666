package io.github.odrust.samples.record;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Static state the recording samples read and write (see RecordIT). */
public class RecHolder {
    public static int COUNT;
    /** A compile-time constant: javac inlines it, no GETSTATIC at all. */
    public static final int INLINED = 7;
    /** Final primitive, String and enum-typed fields that javac does not inline: constants. */
    public static final int CONST = Integer.parseInt("3");

    public static final String NAME = String.valueOf("holder");
    public static final TimeUnit UNIT = TimeUnit.SECONDS;
    public static final Map<String, String> REGISTRY = new HashMap<>();
    public static String label = "x";
    public static int fromThread;
    public static int setUp;
    public static int j5SetUp;
    public static int paramFactory;
    public static int excludedWrites;

    static {
        // a class initialising and reading its own statics: initialisation, not recorded
        REGISTRY.put("init", "yes");
        COUNT = 0;
    }
}
