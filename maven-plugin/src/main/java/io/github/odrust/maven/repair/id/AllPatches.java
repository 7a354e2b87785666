package io.github.odrust.maven.repair.id;

import io.github.odrust.maven.repair.UnifiedPatch;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every patch an ID repair offers, as one patch ({@code repair/id/all.patch}; docs/id-tests.md,
 * "Every patch at once"). The patches of one file are each made against the file as it was, so
 * two that add the same import do not apply one after the other with {@code git apply} (the
 * second's context lacks the line the first added), and two HashToLinkedHash rewrites of one file
 * can each keep {@code import java.util.HashMap} in use while together they leave it unused,
 * which checkstyle's UnusedImports fails a build on. Merged, each change is made once, and an
 * import the patches together leave unused goes.
 */
final class AllPatches {
    /** A single-type import's whole line (not a static or on-demand import): its simple name is group 1. */
    private static final Pattern IMPORT = Pattern.compile(
            "(?m)^[ \\t]*import[ \\t]+(?!static\\b)(?:[\\w$]+\\.)+([\\w$]+)[ \\t]*;[ \\t]*(?:\\r?\\n|\\z)");

    private AllPatches() {}

    /**
     * {@code before} with every text of {@code afters} (each {@code before} changed by one
     * patch) made at once, as {@link UnifiedPatch#merge} makes them; null when two change the
     * same or neighbouring lines differently.
     */
    static String merged(String before, List<String> afters) {
        return afters.size() == 1 ? afters.get(0) : UnifiedPatch.merge(before, afters);
    }

    /**
     * {@code text} without each single-type import whose simple name {@code before} used
     * outside the file's imports and {@code text} no longer does (in code, comments or strings:
     * a name still written anywhere keeps its import), and the names of the imports removed.
     * Imports {@code before} already did not use are kept: they are not this run's to remove.
     * Line endings are kept.
     */
    static Cleaned withoutNowUnusedImports(String before, String text) {
        StringBuilder out = new StringBuilder(text.length());
        List<String> removed = new java.util.ArrayList<>();
        Matcher m = IMPORT.matcher(text);
        int at = 0;
        while (m.find()) {
            String simple = m.group(1);
            if (usedOutsideImports(before, simple) && !usedOutsideImports(text, simple)) {
                out.append(text, at, m.start());
                at = m.end();
                removed.add(m.group().trim().substring("import".length()).trim().replaceAll("\\s*;.*$", ""));
            }
        }
        return new Cleaned(out.append(text, at, text.length()).toString(), List.copyOf(removed));
    }

    /** A text without the imports it left unused, and those imports' names ({@code java.util.HashMap}). */
    record Cleaned(String text, List<String> removed) {}

    /** Whether {@code simple} is written as a whole word on a line that is not an import. */
    private static boolean usedOutsideImports(String text, String simple) {
        Matcher m = Pattern.compile("(?<![\\w$])" + Pattern.quote(simple) + "(?![\\w$])")
                .matcher(text);
        while (m.find()) {
            int lineStart = text.lastIndexOf('\n', m.start()) + 1;
            int lineEnd = text.indexOf('\n', m.start());
            String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd);
            if (!line.stripLeading().startsWith("import ")) {
                return true;
            }
        }
        return false;
    }
}
