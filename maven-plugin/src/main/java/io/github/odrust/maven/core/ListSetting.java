package io.github.odrust.maven.core;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.maven.plugin.MojoFailureException;

/**
 * Comma-separated settings, each entry checked: a list whose value names nothing ({@code ;;},
 * {@code ,,}) or an entry of the wrong shape is refused, naming the setting, the entry and an
 * example, rather than read as "none" or passed on to fail later.
 */
public final class ListSetting {
    /** A dotted Java class-name prefix: {@code com.acme.}, {@code org.example.Json}, {@code Outer$Inner}. */
    private static final Pattern CLASS_PREFIX =
            Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*\\.?");
    /** A static field pattern: {@code pkg.Class#FIELD}, {@code *} for any text. */
    private static final Pattern FIELD_PATTERN = Pattern.compile("[\\p{L}\\p{N}_$.*]+(#[\\p{L}\\p{N}_$*]+)?");

    private ListSetting() {}

    /** The class-name prefixes of {@code value} (null or blank: none). */
    public static List<String> classPrefixes(String setting, String value) throws MojoFailureException {
        return parse(setting, value, CLASS_PREFIX, "a dotted class-name prefix", "com.acme.lib.,org.example.Json");
    }

    /** The static-field patterns of {@code value} (null or blank: none). */
    public static List<String> fieldPatterns(String setting, String value) throws MojoFailureException {
        return parse(
                setting,
                value,
                FIELD_PATTERN,
                "a static field pattern (pkg.Class#FIELD, * for any text)",
                "com.acme.Log#LOGGER,*#COUNTER");
    }

    private static List<String> parse(String setting, String value, Pattern shape, String what, String example)
            throws MojoFailureException {
        List<String> entries = new ArrayList<>();
        if (value == null || value.trim().isEmpty()) {
            return entries;
        }
        for (String part : value.split(",")) {
            String entry = part.trim();
            if (entry.isEmpty()) {
                continue;
            }
            if (!shape.matcher(entry).matches()) {
                throw new MojoFailureException(
                        setting + ": '" + entry + "' is not " + what + "; write e.g. -D" + setting + "=" + example);
            }
            entries.add(entry);
        }
        if (entries.isEmpty()) {
            throw new MojoFailureException(setting + "='" + value + "' names nothing (entries are separated by commas);"
                    + " write e.g. -D" + setting + "=" + example + ", or leave it out");
        }
        return entries;
    }
}
