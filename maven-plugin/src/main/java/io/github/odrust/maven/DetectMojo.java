package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.detect.ConsoleReport;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.Detector;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.KnownFlaky;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.run.Discovery;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Finds order-dependent tests: runs the module's tests in many orders chosen by the engine,
 * confirms every difference, classifies each order-dependent test (victim, brittle) or reports it
 * as non-order flaky, and writes {@code target/odrust/report.json}, {@code report.html} and
 * Surefire-style XML. Every experiment is recorded as it finishes; {@code -Dodrust.resume=true}
 * continues a run that was killed.
 */
@Mojo(name = "detect", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class DetectMojo extends AbstractOdrustMojo {
    /** Per build: one line per module, printed after the last module of the reactor. */
    private static final Map<MavenSession, Map<String, String>> SUMMARIES = new WeakHashMap<>();

    /**
     * How orders are chosen: reverse-passing (default), original, reverse, reverse-class,
     * random-class, random-class-method. On resume, the recorded run's.
     */
    @Parameter(property = "odrust.strategy")
    protected String strategy;

    /**
     * How many orders (rounds) to run after the baseline: 20 (the whole schedule for tuscan,
     * pairs-all and k-bounded), or on resume the recorded run's.
     */
    @Parameter(property = "odrust.rounds")
    protected Integer rounds;

    /** For -Dodrust.strategy=k-bounded: the length of the test tuples (1, 2 or 3). */
    @Parameter(property = "odrust.k")
    protected Integer k;

    /** The seed of every random choice; a new one (printed) when not given. */
    @Parameter(property = "odrust.seed")
    protected Long seed;

    /** Stop starting new rounds after this long (e.g. 90s, 10m, 1h30m); confirmations still finish. */
    @Parameter(property = "odrust.timeBudget")
    protected String timeBudget;

    /** Continue the run recorded in target/odrust/detect/ instead of starting anew. */
    @Parameter(property = "odrust.resume", defaultValue = "false")
    protected boolean resume;

    /** How often the original order is tried before tests that keep failing are set aside: 3, or the recorded run's. */
    @Parameter(property = "odrust.baselineTries")
    protected Integer baselineTries;

    /** How often each order-dependent test runs alone to tell victims from brittles: 10, or the recorded run's. */
    @Parameter(property = "odrust.aloneRuns")
    protected Integer aloneRuns;

    /** Find polluters, cleaners and state-setters of each order-dependent test, and its flake rate. */
    @Parameter(property = "odrust.minimize", defaultValue = "true")
    protected boolean minimize;

    /** At most this many experiments to explain one order-dependent test. */
    @Parameter(property = "odrust.minimize.budget", defaultValue = "60")
    protected int minimizeBudget;

    /** Fail the build when an order-dependent test is found that the known-flaky file does not list. */
    @Parameter(property = "odrust.failOnFlaky", defaultValue = "false")
    protected boolean failOnFlaky;

    /** Tests already known to be order-dependent (one id per line, # comments), not failing the build. */
    @Parameter(property = "odrust.knownFlaky", defaultValue = "${project.basedir}/odrust-known-flaky.txt")
    protected File knownFlaky;

    /**
     * For -Dodrust.strategy=dependence-aware: static fields (comma-separated, {@code pkg.Class#FIELD},
     * {@code *} matches any text) that never make two tests dependent, e.g. loggers or counters.
     */
    @Parameter(property = "odrust.dependenceFree")
    protected String dependenceFree;

    /**
     * For -Dodrust.strategy=dependence-aware: classes to record besides the module's own
     * (comma-separated package or class name prefixes, e.g. a library holding shared state).
     */
    @Parameter(property = "odrust.dependence.include")
    protected String dependenceInclude;

    /**
     * For systematic strategies: run first the orders covering the most pairs per predicted
     * millisecond (from the baseline's recorded times). On by default with a time budget.
     */
    @Parameter(property = "odrust.costAware")
    protected Boolean costAware;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        long budget;
        try {
            budget = timeBudget == null || timeBudget.trim().isEmpty() ? 0 : DetectConfig.parseDuration(timeBudget);
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException(e.getMessage());
        }
        Path out = outputDirectory.toPath();
        Path detectDir = out.resolve("detect");
        // On resume, every setting not given again comes from the recorded run.
        JsonObject saved = resuming() ? savedRun(detectDir) : null;
        JsonObject sc = saved == null ? new JsonObject() : saved.getAsJsonObject("config");
        DetectConfig config = new DetectConfig();
        config.strategy = strategy != null ? strategy.trim() : sc.has("strategy") ? sc.get("strategy").getAsString() : "reverse-passing";
        int defaultRounds = DetectConfig.SYSTEMATIC.contains(config.strategy) ? Integer.MAX_VALUE : 20;
        config.rounds = rounds != null ? rounds : sc.has("rounds") ? sc.get("rounds").getAsInt() : defaultRounds;
        config.k = k != null ? k : sc.has("k") ? sc.get("k").getAsInt() : 2;
        config.baselineTries = baselineTries != null ? baselineTries : sc.has("baseline_tries") ? sc.get("baseline_tries").getAsInt() : 3;
        config.aloneRuns = aloneRuns != null ? aloneRuns : sc.has("alone_runs") ? sc.get("alone_runs").getAsInt() : 10;
        config.seed = seed != null ? seed : sc.has("seed") ? sc.get("seed").getAsLong() : ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
        config.minimize = minimize;
        config.minimizeBudget = minimizeBudget;
        config.dependenceFree = dependenceFree != null ? DetectConfig.commaList(dependenceFree) : savedList(sc, "dependence_free");
        config.dependenceInclude = dependenceInclude != null ? DetectConfig.commaList(dependenceInclude)
                : savedList(sc, "dependence_include");
        config.costAware = costAware != null ? costAware
                : sc.has("cost_aware") ? sc.get("cost_aware").getAsBoolean() : budget > 0;
        configure(config);
        if (config.rounds < 0 || config.baselineTries < 1 || config.aloneRuns < 1 || config.minimizeBudget < 1) {
            throw new MojoFailureException("odrust.rounds must be 0 or more, odrust.baselineTries, odrust.aloneRuns and"
                    + " odrust.minimize.budget 1 or more (got " + config.rounds + ", " + config.baselineTries + ", "
                    + config.aloneRuns + ", " + config.minimizeBudget + ")");
        }

        Engine engine = engine();
        TestModule module = testModule();
        JsonObject suite;
        try {
            suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        } catch (Discovery.NoTestsException e) {
            getLog().info("odrust detect: skipping " + module.id() + ": no tests (" + e.getMessage() + ")");
            finish(module.id(), "no tests, skipped");
            return;
        }
        Discovery.writeSuite(suite, out);

        ExperimentLog history;
        String fingerprint = sha256(Engine.GSON.toJson(suite));
        try {
            history = saved != null ? resumeHistory(config, saved, detectDir, fingerprint) : freshHistory(config, detectDir, out, fingerprint);
        } catch (IOException e) {
            throw new MojoExecutionException("could not prepare " + detectDir + ": " + e.getMessage(), e);
        }
        keepEarlierExplanations(config, history);
        checkMinimizeTargets(engine, config, suite, history);
        int tests = Discovery.originalOrder(suite).size();
        getLog().info("odrust detect: " + module.id() + ", " + tests + " tests, strategy " + config.strategy + ", "
                + (config.rounds == Integer.MAX_VALUE ? "the whole schedule" : config.rounds + " rounds") + ", seed=" + config.seed + " (the same run again: -Dodrust.seed=" + config.seed + ")");

        Report report;
        try {
            JsonObject summary = new Detector(module, engine, suite, config, history, out, budget, getLog()).run();
            report = Report.of(ReportWriter.report(summary, module.id(), project.getBasedir().toPath(), out, invocation("reproduce")));
            ReportWriter.write(report.json, engine, out);
        } catch (IOException e) {
            throw new MojoExecutionException("odrust detect could not write its results under " + out + ": " + e.getMessage(), e);
        }
        ConsoleReport.print(report, out, getLog());
        finish(module.id(), ConsoleReport.moduleLine(report));
        failIfNewFlaky(report);
    }

    private static List<String> savedList(JsonObject sc, String key) {
        List<String> l = new ArrayList<>();
        if (sc.has(key) && sc.get(key).isJsonArray()) {
            sc.getAsJsonArray(key).forEach(e -> l.add(e.getAsString()));
        }
        return l;
    }

    /** Whether to continue the recorded run rather than start a new one. */
    protected boolean resuming() {
        return resume;
    }

    /** Lets a goal built on detection adjust the configuration (odrust:minimize names one test). */
    protected void configure(DetectConfig config) throws MojoFailureException {}

    private static final Set<String> MINIMIZE_KINDS = Set.of("polluter-search", "polluter-pair", "cleaner", "setter-search", "setter-pair");

    /**
     * When only some tests are to be explained, the tests a recorded run already explained come
     * first, in the order it explained them: the engine replays the history against its plan, and
     * that plan must contain those experiments.
     */
    static void keepEarlierExplanations(DetectConfig config, ExperimentLog history) {
        if (config.minimizeOnly.isEmpty()) {
            return;
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (JsonElement e : history.history()) {
            // A record echoes the experiment it ran.
            Experiment record = Engine.GSON.fromJson(e, Experiment.class);
            if (MINIMIZE_KINDS.contains(record.kind) && !record.targets.isEmpty()) {
                ordered.add(record.targets.get(0));
            }
        }
        ordered.addAll(config.minimizeOnly);
        config.minimizeOnly = new ArrayList<>(ordered);
    }

    /** Each test named for minimization must be an order-dependent test of the recorded run. */
    private static void checkMinimizeTargets(Engine engine, DetectConfig config, JsonObject suite, ExperimentLog history)
            throws MojoFailureException {
        if (config.minimizeOnly.isEmpty()) {
            return;
        }
        JsonObject request = new JsonObject();
        request.add("config", config.toJson());
        request.add("suite", suite);
        request.add("history", history.history());
        List<String> od = new ArrayList<>();
        for (Summary.FlakyTest f : engine.call("detect_summary", request, Summary.class).flaky) {
            if (f.isOrderDependent()) {
                od.add(f.test);
            }
        }
        for (String t : config.minimizeOnly) {
            if (!od.contains(t)) {
                throw new MojoFailureException("odrust.test=" + t + " is not an order-dependent test of the detection run in"
                        + " target/odrust/detect/; " + (od.isEmpty() ? "that run found none." : "it found: " + String.join(", ", od)));
            }
        }
    }

    private ExperimentLog freshHistory(DetectConfig config, Path detectDir, Path out, String fingerprint) throws IOException {
        deleteRecursively(detectDir);
        deleteOldOrders(out.resolve("orders"));
        Files.createDirectories(detectDir);
        JsonObject run = new JsonObject();
        run.add("config", config.toJson());
        run.addProperty("suite_sha256", fingerprint);
        Files.write(detectDir.resolve("run.json"), Engine.GSON.toJson(run).getBytes(StandardCharsets.UTF_8));
        return ExperimentLog.create(detectDir.resolve("experiments.jsonl"));
    }

    /** The recorded run's settings, to resume it. */
    private static JsonObject savedRun(Path detectDir) throws MojoFailureException, MojoExecutionException {
        Path runFile = detectDir.resolve("run.json");
        if (!Files.isRegularFile(runFile) || !Files.isRegularFile(detectDir.resolve("experiments.jsonl"))) {
            throw new MojoFailureException("there is no detection run to continue in " + detectDir
                    + ": run odrust:detect (without -Dodrust.resume) first.");
        }
        try {
            return JsonParser.parseString(new String(Files.readAllBytes(runFile), StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException("cannot read " + runFile + " (" + e.getMessage() + "); start a new run without"
                    + " -Dodrust.resume", e);
        }
    }

    private ExperimentLog resumeHistory(DetectConfig config, JsonObject saved, Path detectDir, String fingerprint)
            throws IOException, MojoFailureException {
        List<String> diffs = config.incompatibleWith(saved.getAsJsonObject("config"));
        if (!fingerprint.equals(saved.get("suite_sha256").getAsString())) {
            diffs.add("the module's tests changed since that run began");
        }
        if (!diffs.isEmpty()) {
            throw new MojoFailureException("cannot continue the detection run in " + detectDir + ": " + String.join("; ", diffs)
                    + ". Continue with the same settings, or start a new run without -Dodrust.resume.");
        }
        ExperimentLog log = ExperimentLog.load(detectDir.resolve("experiments.jsonl"));
        getLog().info("resuming: " + log.size() + " experiments already done are not repeated");
        return log;
    }

    /** Records this module's line; after the reactor's last module, prints them all. */
    private void finish(String module, String line) {
        Map<String, String> lines;
        synchronized (SUMMARIES) {
            lines = SUMMARIES.computeIfAbsent(session, s -> new LinkedHashMap<>());
            lines.put(module, line);
        }
        List<MavenProject> projects = session.getProjects();
        if (projects.size() > 1 && projects.get(projects.size() - 1).equals(project)) {
            getLog().info("odrust summary (" + lines.size() + " modules):");
            lines.forEach((m, l) -> getLog().info("  " + m + ": " + l));
        }
    }

    private void failIfNewFlaky(Report report) throws MojoFailureException {
        if (!failOnFlaky) {
            return;
        }
        List<String> fresh;
        try {
            fresh = KnownFlaky.unlisted(report, knownFlaky);
        } catch (IOException e) {
            throw new MojoFailureException("cannot read the known-flaky file " + knownFlaky + ": " + e.getMessage());
        }
        if (!fresh.isEmpty()) {
            throw new MojoFailureException("odrust found " + fresh.size() + " order-dependent test" + (fresh.size() == 1 ? "" : "s")
                    + " not listed in " + knownFlaky + " (-Dodrust.failOnFlaky=true):\n  " + String.join("\n  ", fresh)
                    + "\nFix them, or list them in that file (one test id per line) to accept them for now.");
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteOldOrders(Path orders) throws IOException {
        if (!Files.isDirectory(orders)) {
            return;
        }
        try (Stream<Path> files = Files.list(orders)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().matches("exp-\\d+\\.txt")) {
                    Files.delete(p);
                }
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
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
