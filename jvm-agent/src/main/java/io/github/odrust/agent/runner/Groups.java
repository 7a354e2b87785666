package io.github.odrust.agent.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Surefire's {@code groups} and {@code excludedGroups} (docs/run-order.md), which discovery
 * applies: JUnit 5 tag expressions, JUnit 4 category classes.
 */
public final class Groups {
    private Groups() {}

    /** The comma-separated elements of {@code value}, trimmed; empty when it is null or blank. */
    public static List<String> split(String value) {
        if (value == null || value.trim().isEmpty()) {
            return Collections.emptyList();
        }
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.trim().isEmpty()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    /**
     * Whether an element is more than a name (Surefire's group expressions: {@code !}, {@code &},
     * {@code |}, parentheses, {@code AND}, {@code OR}, {@code NOT}), which JUnit 4 categories are
     * not matched against here.
     */
    public static boolean isExpression(String element) {
        return element.matches(".*[!&|()].*") || element.matches("(?i).*\\b(and|or|not)\\b.*");
    }
}
