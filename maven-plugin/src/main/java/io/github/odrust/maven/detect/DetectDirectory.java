package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.run.DiscoveredSuite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * Where a detection run is recorded, {@code target/odrust/detect/}: {@code run.json} (its settings
 * and the fingerprint of the suite) and its {@link ExperimentLog}. A new run starts from an empty
 * directory, after moving the previous run's evidence (its history, order files and reports) to
 * {@code target/odrust/previous/}; a resumed one must have the same settings and suite.
 */
public final class DetectDirectory {
    private final Path out;
    private final Path dir;

    /** @param out the odrust output directory ({@code target/odrust}) */
    public DetectDirectory(Path out) {
        this.out = out;
        this.dir = out.resolve("detect");
    }

    /** The recorded run's {@code run.json}, to resume it. */
    public JsonObject savedRun() throws MojoFailureException, MojoExecutionException {
        Path runFile = dir.resolve("run.json");
        if (!Files.isRegularFile(runFile) || !Files.isRegularFile(dir.resolve("experiments.jsonl"))) {
            throw new MojoFailureException("there is no detection run to continue in " + dir
                    + ": run odrust:detect (without -Dodrust.resume) first.");
        }
        try {
            return JsonParser.parseString(new String(Files.readAllBytes(runFile), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException(
                    "cannot read " + runFile + " (" + e.getMessage() + "); start a new run without"
                            + " -Dodrust.resume",
                    e);
        }
    }

    /**
     * The history to continue: the recorded one when {@code saved} (the run.json of the run to
     * resume) is given and matches, else a new, empty one (the previous run's files are removed).
     */
    public ExperimentLog history(DetectConfig config, JsonObject saved, DiscoveredSuite suite, Log log)
            throws MojoExecutionException, MojoFailureException {
        String fingerprint = sha256(Json.WIRE.toJson(suite));
        try {
            return saved != null ? resume(config, saved, fingerprint, log) : fresh(config, fingerprint, log);
        } catch (IOException e) {
            throw new MojoExecutionException("could not prepare " + dir + ": " + e.getMessage(), e);
        }
    }

    private ExperimentLog fresh(DetectConfig config, String fingerprint, Log log) throws IOException {
        keepPrevious(log);
        Files.createDirectories(dir);
        JsonObject run = new JsonObject();
        run.add("config", config.toJson());
        run.addProperty("suite_sha256", fingerprint);
        Files.write(dir.resolve("run.json"), Json.WIRE.toJson(run).getBytes(StandardCharsets.UTF_8));
        return ExperimentLog.create(dir.resolve("experiments.jsonl"));
    }

    private ExperimentLog resume(DetectConfig config, JsonObject saved, String fingerprint, Log log)
            throws IOException, MojoFailureException {
        List<String> diffs = config.incompatibleWith(saved.getAsJsonObject("config"));
        boolean testsChanged = !fingerprint.equals(saved.get("suite_sha256").getAsString());
        if (testsChanged) {
            diffs.add("the module's tests changed since that run began (its orders would run other tests)");
        }
        if (!diffs.isEmpty()) {
            boolean settingsDiffer = diffs.size() > (testsChanged ? 1 : 0);
            throw new MojoFailureException("cannot continue the detection run in " + dir + ": "
                    + String.join("; ", diffs)
                    + (settingsDiffer && !testsChanged
                            ? ". Continue with the same settings, or start a new run without -Dodrust.resume."
                            : ". Start a new run without -Dodrust.resume (the earlier run's evidence is kept in "
                                    + "previous/)."));
        }
        ExperimentLog history = ExperimentLog.load(dir.resolve("experiments.jsonl"));
        int restored = OrderFiles.restore(out, history.history(), config.seed);
        if (restored > 0) {
            log.warn("made " + io.github.odrust.maven.core.Words.count(restored, "order file") + " under "
                    + out.resolve("orders") + " again from the history: they were missing");
        }
        log.info("resuming: " + io.github.odrust.maven.core.Words.count(history.size(), "experiment") + " already done "
                + (history.size() == 1 ? "is" : "are") + " not repeated");
        return history;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How many earlier runs are kept: {@code previous/}, {@code previous-2/}, {@code previous-3/}. */
    static final int KEPT_RUNS = 3;

    /**
     * Moves the last run's evidence to {@code previous/}: its history, its order files (the report's
     * reproduce commands point at them) and its reports. The runs kept before move one place back
     * ({@code previous/} to {@code previous-2/}, ...); only the oldest beyond {@link #KEPT_RUNS} is
     * deleted, and the log says what moved where. A new run's settings are checked before this is
     * called, so a typo never costs a run.
     */
    void keepPrevious(Log log) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Path previous = out.resolve("previous");
        Path oldest = out.resolve("previous-" + KEPT_RUNS);
        if (Files.exists(oldest)) {
            deleteRecursively(oldest);
            log.info("deleted the oldest kept detection run, " + oldest + " (odrust keeps " + KEPT_RUNS + ")");
        }
        for (int n = KEPT_RUNS - 1; n >= 1; n--) {
            Path from = n == 1 ? previous : out.resolve("previous-" + n);
            if (Files.exists(from)) {
                Files.move(from, out.resolve("previous-" + (n + 1)));
            }
        }
        Files.createDirectories(previous.resolve("orders"));
        Files.move(dir, previous.resolve("detect"));
        Path orders = out.resolve("orders");
        if (Files.isDirectory(orders)) {
            try (Stream<Path> files = Files.list(orders)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    if (p.getFileName().toString().matches("exp-\\d+\\.txt")) {
                        Files.move(p, previous.resolve("orders").resolve(p.getFileName()));
                    }
                }
            }
        }
        for (String report : List.of("report.json", "report.html")) {
            if (Files.isRegularFile(out.resolve(report))) {
                Files.move(out.resolve(report), previous.resolve(report));
            }
        }
        Path xml = out.resolve("surefire-reports").resolve("TEST-odrust.xml");
        if (Files.isRegularFile(xml)) {
            Files.createDirectories(previous.resolve("surefire-reports"));
            Files.move(xml, previous.resolve("surefire-reports").resolve("TEST-odrust.xml"));
        }
        log.info("the previous detection run's history, orders and reports are kept in " + previous
                + (Files.exists(out.resolve("previous-2"))
                        ? " (older runs: "
                                + (Files.exists(out.resolve("previous-3")) ? "previous-2/, previous-3/" : "previous-2/")
                                + ")"
                        : ""));
    }

    /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
    public static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
