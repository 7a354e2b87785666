package io.github.odrust.maven.detect;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.ReportRequest;
import io.github.odrust.engine.protocol.Summary;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.plugin.MojoFailureException;

/**
 * What odrust:repair takes from the last {@code odrust:detect}: report.json (checked: present,
 * readable, of this schema and this odrust version) and the baseline run's results from the
 * detection history (what every other test must still do once a patch is in).
 */
public final class DetectInput {
    public final Path reportFile;
    public final Report report;
    /** The results of detect's first baseline run of the original order; empty when none is recorded. */
    public final List<ExperimentRecord.TestResult> baseline;

    private String goal = "odrust:repair";
    private String verb = "repairs";

    private DetectInput(Path reportFile, Report report, List<ExperimentRecord.TestResult> baseline) {
        this.reportFile = reportFile;
        this.report = report;
        this.baseline = baseline;
    }

    public static DetectInput load(Path out, String engineVersion) throws MojoFailureException {
        return load(out, engineVersion, "odrust:repair", "repairs");
    }

    /** Loads report.json for {@code goal} (named in messages), which {@code verb} the OD tests. */
    public static DetectInput load(Path out, String engineVersion, String goal, String verb)
            throws MojoFailureException {
        Path file = out.resolve("report.json");
        if (!Files.isRegularFile(file)) {
            throw new MojoFailureException(goal + " found no detection results: " + file + " does not exist. Run"
                    + " `mvn odrust:detect` first; " + goal + " " + verb + " the victims and brittles it found"
                    + (goal.equals("odrust:repair")
                            ? " (and, after `mvn odrust:detect-id`, the implementation-dependent tests"
                                    + " that finds)."
                            : "."));
        }
        JsonObject json;
        try {
            json = JsonParser.parseString(new String(Files.readAllBytes(file), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException("cannot read " + file + " (" + e.getMessage()
                    + "); run `mvn odrust:detect` again" + " to write it anew.");
        }
        int schema = json.has("schema_version") ? json.get("schema_version").getAsInt() : -1;
        if (schema != ReportRequest.SCHEMA_VERSION) {
            throw new MojoFailureException(file + " has schema_version " + schema + "; this odrust reads "
                    + ReportRequest.SCHEMA_VERSION + ". Run `mvn odrust:detect` again with this odrust.");
        }
        JsonElement version = json.get("odrust_version");
        String made = version == null || version.isJsonNull() ? null : version.getAsString();
        if (!engineVersion.equals(made)) {
            throw new MojoFailureException(
                    file + " was made by " + (made == null ? "an older odrust" : "odrust " + made)
                            + ", and this is odrust " + engineVersion
                            + ": its ids and orders may mean something else here. Run"
                            + " `mvn odrust:detect` again with this odrust (-Dodrust.resume=true reuses the experiments already run).");
        }
        Report report;
        try {
            report = Report.of(json);
        } catch (RuntimeException e) {
            throw new MojoFailureException(
                    "cannot read " + file + " (" + e.getMessage() + "); run `mvn odrust:detect` again.");
        }
        for (int i = 0; i < report.summary.flaky.size(); i++) {
            Summary.FlakyTest f = report.summary.flaky.get(i);
            String where = file + ": flaky[" + i + "]";
            if (f.test == null || f.test.trim().isEmpty()) {
                throw new MojoFailureException(where + " has no test id. Run `mvn odrust:detect` again to write "
                        + file.getFileName() + " anew.");
            }
            if (!Summary.FlakyTest.KINDS.contains(f.kind)) {
                throw new MojoFailureException(where + " (" + f.test + ") has kind `" + f.kind
                        + "`, which is not one of "
                        + String.join(", ", Summary.FlakyTest.KINDS) + ". Run `mvn odrust:detect` again to write "
                        + file.getFileName() + " anew.");
            }
        }
        DetectInput in =
                new DetectInput(file, report, baseline(out.resolve("detect").resolve("experiments.jsonl")));
        in.goal = goal;
        in.verb = verb;
        return in;
    }

    /** The OD tests to repair: all victims and brittles, or the one named by {@code -Dodrust.test}. */
    public List<Summary.FlakyTest> targets(String only) throws MojoFailureException {
        List<Summary.FlakyTest> od = report.summary.flaky.stream()
                .filter(Summary.FlakyTest::isOrderDependent)
                .collect(Collectors.toList());
        if (only == null || only.trim().isEmpty()) {
            return od;
        }
        String given = only.trim();
        // The short form the console prints (Class#method) names a test when only one matches.
        List<Summary.FlakyTest> shortMatches = report.summary.flaky.stream()
                .filter(f -> f.test.endsWith("." + given) || f.test.endsWith("$" + given))
                .collect(Collectors.toList());
        boolean exact = report.summary.flaky.stream().anyMatch(f -> f.test.equals(given));
        String id = !exact && shortMatches.size() == 1 ? shortMatches.get(0).test : given;
        for (Summary.FlakyTest f : report.summary.flaky) {
            if (f.test.equals(id)) {
                if (!f.isOrderDependent()) {
                    throw new MojoFailureException(id + " is "
                            + ("nod".equals(f.kind)
                                    ? "a NOD test (it fails and passes in the" + " same order)"
                                    : "not classified yet")
                            + " in " + reportFile
                            + "; " + goal + " " + verb + " victims and brittles (order-dependent tests).");
                }
                return List.of(f);
            }
        }
        throw new MojoFailureException("-Dodrust.test=" + id + " is not an order-dependent test of " + reportFile + "; "
                + (od.isEmpty()
                        ? "that report has none."
                        : "it has: " + od.stream().map(f -> f.test).collect(Collectors.joining(", "))));
    }

    public boolean complete() {
        JsonElement c = report.json.get("complete");
        return c != null && !c.isJsonNull() && c.getAsBoolean();
    }

    /** The failing order file of a flaky test, as report.json names it (relative to the module), or null. */
    public String failingOrderFile(Summary.FlakyTest f) {
        int i = report.summary.flaky.indexOf(f);
        return i < 0 || i >= report.links.size() ? null : report.links.get(i).failingOrder;
    }

    /**
     * The order a flaky test failed in: its failing order file (report.json's {@code failing_order},
     * relative to {@code basedir}), or, when that file is gone, the experiment's order from the
     * detection history, written back to the file. Never an empty order in silence.
     *
     * @throws MojoFailureException when neither the file nor the history has it
     */
    public List<String> failingOrder(Summary.FlakyTest f, Path basedir) throws MojoFailureException {
        String name = failingOrderFile(f);
        if (name == null) {
            throw new MojoFailureException(reportFile + " names no failing order for " + f.test
                    + "; run `mvn odrust:detect` again with this odrust.");
        }
        Path file = basedir.resolve(name);
        if (Files.isRegularFile(file)) {
            try {
                return orderOf(Files.readAllLines(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new MojoFailureException(
                        "cannot read " + file + " (" + e.getMessage() + "), the order " + f.test + " failed in.");
            }
        }
        Path history = reportFile.getParent().resolve("detect").resolve("experiments.jsonl");
        List<String> order = experimentOrder(history, f.failingExperiment);
        if (order == null) {
            throw new MojoFailureException(file + ", the order " + f.test + " failed in, is missing, and " + history
                    + " has no experiment " + f.failingExperiment + " to make it again from. Run `mvn odrust:detect`"
                    + " again (-Dodrust.resume=true regenerates the order files of the experiments it kept).");
        }
        try {
            Files.createDirectories(file.getParent());
            Files.write(
                    file,
                    ("# odrust experiment " + f.failingExperiment + ", regenerated from " + history.getFileName()
                                    + " (the file was missing)\n" + String.join("\n", order) + "\n")
                            .getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoFailureException("cannot write " + file + " again: " + e.getMessage());
        }
        return order;
    }

    /** The order of experiment {@code id} in a detection history, or null. */
    static List<String> experimentOrder(Path history, int id) {
        if (!Files.isRegularFile(history)) {
            return null;
        }
        try (BufferedReader r = Files.newBufferedReader(history, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                JsonObject json;
                try {
                    json = JsonParser.parseString(line).getAsJsonObject();
                } catch (RuntimeException e) {
                    continue;
                }
                if (json.has("id") && json.get("id").getAsInt() == id && json.has("order")) {
                    List<String> order = new ArrayList<>();
                    json.getAsJsonArray("order").forEach(t -> order.add(t.getAsString()));
                    return order;
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    private static List<String> orderOf(List<String> lines) {
        List<String> ids = new ArrayList<>();
        for (String line : lines) {
            String t = line.trim();
            if (!t.isEmpty() && !t.startsWith("#")) {
                ids.add(t);
            }
        }
        return ids;
    }

    private static List<ExperimentRecord.TestResult> baseline(Path history) {
        if (!Files.isRegularFile(history)) {
            return new ArrayList<>();
        }
        try (BufferedReader r = Files.newBufferedReader(history, StandardCharsets.UTF_8)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.contains("\"baseline\"")) {
                    continue;
                }
                JsonObject json = JsonParser.parseString(line).getAsJsonObject();
                ExperimentRecord record = ExperimentRecord.of(json);
                if (record.kind == ExperimentKind.BASELINE && json.has("results")) {
                    return record.results;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new ArrayList<>();
        }
        return new ArrayList<>();
    }

    /** The ids of an order file (one per line; blank lines and # comments skipped). */
    public static List<String> readOrder(Path file) {
        List<String> ids = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String t = line.trim();
                if (!t.isEmpty() && !t.startsWith("#")) {
                    ids.add(t);
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return ids;
    }
}
