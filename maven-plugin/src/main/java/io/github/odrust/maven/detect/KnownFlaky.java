package io.github.odrust.maven.detect;

import io.github.odrust.engine.protocol.Summary;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoFailureException;

/** The known-flaky file (one test id per line, # comments) and the OD tests it does not list. */
public final class KnownFlaky {
    private KnownFlaky() {}

    /**
     * Fails when {@code report} has a victim or brittle that {@code file} does not list
     * ({@code -Dodrust.failOnFlaky=true}).
     */
    public static void failIfUnlisted(Report report, File file) throws MojoFailureException {
        failIfUnlisted(report, file, null);
    }

    /**
     * As {@link #failIfUnlisted(Report, File)}, with a quarantine: a test an entry in force covers
     * does not fail the build, and each expired entry does, naming its owner (docs/history.md).
     */
    public static void failIfUnlisted(
            Report report, File file, io.github.odrust.maven.history.Quarantine.Verdict quarantine)
            throws MojoFailureException {
        List<Integer> indexes;
        try {
            indexes = unlistedIndexes(report, file);
        } catch (IOException e) {
            throw new MojoFailureException("cannot read the known-flaky file " + file + ": " + e.getMessage());
        }
        if (quarantine != null) {
            indexes.removeIf(i -> quarantine.quarantined.contains(report.summary.flaky.get(i).test)
                    || quarantine.expiredTests.contains(report.summary.flaky.get(i).test));
        }
        List<String> fresh = describe(report, indexes);
        if (quarantine != null) {
            if (!quarantine.expired.isEmpty()) {
                throw new MojoFailureException("odrust: " + quarantine.expired.size() + " quarantine entr"
                        + (quarantine.expired.size() == 1 ? "y" : "ies") + " of " + quarantine.file
                        + " expired (-Dodrust.failOnFlaky=true):\n  " + String.join("\n  ", quarantine.expired)
                        + "\nFix the test and remove the entry, or give it a later `expires`."
                        + (fresh.isEmpty()
                                ? ""
                                : "\nAlso found, neither listed in " + file + " nor quarantined:\n  "
                                        + String.join("\n  ", fresh)));
            }
        }
        if (!fresh.isEmpty()) {
            throw new MojoFailureException("odrust found " + fresh.size() + " order-dependent test"
                    + (fresh.size() == 1 ? "" : "s")
                    + " not listed in " + file + " (-Dodrust.failOnFlaky=true):\n  " + String.join("\n  ", fresh)
                    + "\nFix them, or list them in that file (one test id per line) to accept them for now.");
        }
    }

    /** Victims and brittles of {@code report} not listed in {@code file} (a missing file lists none). */
    public static List<String> unlisted(Report report, File file) throws IOException {
        return describe(report, unlistedIndexes(report, file));
    }

    /** The indexes in {@code report.summary.flaky} of the victims and brittles {@code file} does not list. */
    static List<Integer> unlistedIndexes(Report report, File file) throws IOException {
        Set<String> known = new LinkedHashSet<>();
        if (file != null && file.isFile()) {
            for (String line : Files.readAllLines(file.toPath(), StandardCharsets.UTF_8)) {
                String t = line.replaceAll("\\s+#.*$", "").trim();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    known.add(t);
                }
            }
        }
        List<Integer> fresh = new ArrayList<>();
        for (int i = 0; i < report.summary.flaky.size(); i++) {
            Summary.FlakyTest f = report.summary.flaky.get(i);
            if (f.isOrderDependent() && !known.contains(f.test)) {
                fresh.add(i);
            }
        }
        return fresh;
    }

    /** One line per test: its id, kind and reproduce command. */
    private static List<String> describe(Report report, List<Integer> indexes) {
        List<String> lines = new ArrayList<>();
        for (int i : indexes) {
            Summary.FlakyTest f = report.summary.flaky.get(i);
            lines.add(f.test + " (" + f.kind + "; reproduce: " + report.links.get(i).reproduce + ")");
        }
        return lines;
    }
}
