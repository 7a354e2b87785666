package io.github.odrust.maven.idtests;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.IdReportRequest;
import io.github.odrust.engine.protocol.IdRequest;
import io.github.odrust.engine.protocol.IdStep;
import io.github.odrust.maven.core.Eta;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.PlannerLoop;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.fork.SharedJvm;
import io.github.odrust.maven.fork.TestJvm;
import io.github.odrust.maven.run.CodeDigest;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The detect-id loop (docs/id-tests.md): asks the engine ({@code id_next}) for the next run (clean,
 * shuffled under a seed, the candidate alone, a bisection step), runs it with the jvm-agent in
 * shuffle mode, records it in {@code id/experiments.jsonl} as it ends, and writes the verdicts to
 * {@code id/report.json}, {@code id/report.html} and {@code id/surefire-reports/TEST-odrust-id.xml}.
 * A killed run resumes from its records; a run with other settings first moves the earlier run's
 * directory aside.
 */
public final class IdDetector {
    /**
     * The agent's way of counting calls; a run recorded with another is not resumed, and a report
     * made with another is not repaired (its pins name other calls). 4: the project's own jars
     * (a sibling module given as a jar) count as its code.
     */
    public static final int COUNTING = 4;

    /** What the user asked for. */
    public static final class Settings {
        public long seed;
        public int seedCount = 4;
        public int cleanRuns = 1;
        public Integer budget;
        public Shuffle.Filter filter = new Shuffle.Filter();
        /**
         * Runs of a candidate alone in shared JVMs with fresh class loaders, each pin confirmed in
         * a fresh JVM ({@code odrust.id.isolation=classloader}); false (the default): every run in
         * a fresh JVM.
         */
        public boolean shared;

        public List<Long> seeds() {
            List<Long> s = new ArrayList<>();
            for (int i = 0; i < seedCount; i++) {
                s.add(seed + i);
            }
            return s;
        }

        JsonObject toJson() {
            JsonObject o = new JsonObject();
            o.addProperty("seed", seed);
            o.add("seeds", Json.WIRE.toJsonTree(seeds()));
            o.addProperty("clean_runs", cleanRuns);
            if (budget != null) {
                o.addProperty("budget", budget);
            }
            o.addProperty("filter", filter.any ? "any" : "project");
            o.add("include", Json.WIRE.toJsonTree(filter.include));
            o.addProperty("isolation", shared ? "classloader" : "fresh");
            // how calls are counted (2: not inside the JDK's class loading and initialization; 3:
            // nor on fewer than two elements; 4: the project's jars are its code): records counted
            // otherwise number other calls
            o.addProperty("counting", COUNTING);
            return o;
        }
    }

    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final Path dir;
    private final Settings settings;
    private final Log log;

    public IdDetector(Engine engine, TestModule module, DiscoveredSuite suite, Path out, Settings settings, Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.dir = out.resolve("id");
        this.settings = settings;
        this.log = log;
    }

    /** The recorded settings of an earlier run in {@code out/id}, or null. */
    public static JsonObject savedSettings(Path out) {
        return io.github.odrust.maven.detect.EvidenceDirectory.savedSettings(out.resolve("id"));
    }

    /** Runs (or resumes) detection; returns report.json's content. */
    public JsonObject run(String reproduceTemplate) throws MojoExecutionException {
        ExperimentLog history = prepare();
        List<String> tests = Discovery.originalOrder(suite);
        String fingerprint;
        try {
            fingerprint = CodeDigest.of(module);
        } catch (IOException e) {
            throw new MojoExecutionException("odrust:detect-id cannot read the module's classes: " + e.getMessage(), e);
        }
        IdRequest request = new IdRequest();
        request.tests = tests;
        request.seeds = settings.seeds();
        request.cleanRuns = settings.cleanRuns;
        request.budget = settings.budget;
        request.fingerprint = fingerprint;
        request.shared = settings.shared;
        PlannerLoop<IdStep> loop = new PlannerLoop<>(history, request.history, r -> true);
        log.info("odrust detect-id: " + module.id() + ", " + Words.count(tests.size(), "test")
                + Discovery.countNote(suite) + ", seeds "
                + settings.seeds() + " (the same run again: -Dodrust.seed=" + settings.seed
                + "; pinning a test alone may also try a few seeds derived from them), "
                + Words.count(settings.cleanRuns, "clean run") + ", calls from "
                + (settings.filter.any ? "any code" : "the module's code")
                + (settings.shared
                        ? ", runs alone in shared JVMs with each pin confirmed in a fresh one (odrust.id.isolation=classloader)"
                        : ", every run in a fresh JVM (odrust.id.isolation=fresh)")
                + (history.size() > 0 ? "; resuming after " + Words.count(history.size(), "experiment") : "")
                + "; experiments in " + dir.resolve("experiments.jsonl"));
        loop.after((step, record, ms) -> progress(step, ms));
        IdStep done;
        try {
            done = loop.run(new PlannerLoop.Goal<IdStep>() {
                @Override
                public IdStep next(int nextId) {
                    request.nextId = nextId;
                    return engine.call("id_next", request, IdStep.class);
                }

                @Override
                public boolean done(IdStep step) {
                    return step.isDone();
                }

                @Override
                public JsonObject run(IdStep step) throws MojoExecutionException {
                    return runExperiment(step.experiment, fingerprint);
                }

                @Override
                public String name(IdStep step) {
                    return "ID experiment " + step.experiment.id;
                }
            });
        } finally {
            closeShared();
        }
        if (sharedStarted > 0) {
            log.info("odrust detect-id: " + Words.count(sharedRuns, "run") + " alone ran in "
                    + Words.count(sharedStarted, "shared JVM") + " (fresh class loaders); every pin they found was"
                    + " run again in a fresh JVM before it was reported");
        }
        if (searches != null) {
            log.info("odrust detect-id: the searches took " + searches.outcome());
        }
        return write(done.outcome, reproduceTemplate);
    }

    private ExperimentLog prepare() throws MojoExecutionException {
        try {
            return io.github.odrust.maven.detect.EvidenceDirectory.open(dir, settings.toJson(), "detect-id", log::info);
        } catch (IOException e) {
            throw new MojoExecutionException("odrust:detect-id cannot prepare " + dir + ": " + e.getMessage(), e);
        }
    }

    private JsonObject runExperiment(IdStep.Experiment e, String fingerprint) throws MojoExecutionException {
        Path expDir = dir.resolve("exp-" + e.id);
        Path options = expDir.resolve("agent-options.txt");
        Path shuffleLog = expDir.resolve("shuffle.jsonl");
        // where the pinned call's collection was made (its repairs); a fresh confirmation of a
        // shared pin may become the pin's record
        boolean track = "alone".equals(e.kind) || "bisect".equals(e.kind) || "confirm-pin".equals(e.kind);
        try {
            Files.createDirectories(expDir);
            Files.deleteIfExists(shuffleLog);
            Files.write(
                    options,
                    Shuffle.options(
                                    module,
                                    settings.filter,
                                    e.seed,
                                    e.only,
                                    e.onlyCall,
                                    track,
                                    e.consistentCall,
                                    shuffleLog,
                                    "odrust:detect-id experiment " + e.id)
                            .getBytes(StandardCharsets.UTF_8));
        } catch (IOException ex) {
            throw new MojoExecutionException("cannot write " + options + ": " + ex.getMessage(), ex);
        }
        long start = System.nanoTime();
        OrderRunner runner =
                new OrderRunner(module, engine, suite, expDir, log).quiet().recording(options);
        SharedJvm jvm = e.mayShare() && settings.shared ? sharedJvm() : null;
        boolean newJvm = jvm != null && jvm.served() == 0;
        if (jvm != null) {
            runner.sharedShuffling(jvm).classpathJar(sharedJar);
        }
        RunResult result = runner.run(String.join("\n", e.order), "ID experiment " + e.id);
        boolean inShared = !result.jvms.isEmpty() && result.jvms.get(0).shared;
        lastInShared = inShared;
        if (inShared) {
            sharedRuns++;
        } else if (newJvm) {
            // a shared JVM that ends before its first order would end before every one
            sharedBroken = true;
            log.warn("odrust detect-id: the shared JVM ended before its first run (see "
                    + dir.resolve("shared-jvm-" + sharedStarted + ".log")
                    + "); every run goes to a fresh JVM");
        }
        if ("clean".equals(e.kind) || "shuffled".equals(e.kind)) {
            phase1Costs(e.kind, result, (System.nanoTime() - start) / 1_000_000);
        }
        Shuffle.Log shuffled = Shuffle.read(shuffleLog);
        JsonObject record = Json.WIRE.toJsonTree(e).getAsJsonObject();
        record.addProperty("fingerprint", fingerprint);
        record.add("results", result.resultsJson());
        record.addProperty("honoured", Boolean.TRUE.equals(result.honoured));
        record.addProperty("count", Math.max(shuffled.count, shuffled.maxIndex));
        record.add("calls", shuffled.calls);
        if (shuffled.count < 0) {
            record.addProperty(
                    "error",
                    result.jvms.size() > 1
                            ? "the order ran in " + result.jvms.size()
                                    + " JVMs (one ended early): call numbers restarted"
                            : "the test JVM did not exit normally: the count of shuffled calls is missing");
        }
        int failed = 0;
        for (RunResult.TestResult r : result.results) {
            if (!"pass".equals(r.outcome) && !"skipped".equals(r.outcome)) {
                failed++;
            }
        }
        String what = e.kind
                + (e.seed == null ? "" : " seed " + e.seed)
                + (e.only != null && e.only.size() > 0 ? " only " + Shuffle.onlyText(e.only) : "")
                + (e.consistentCall == null ? "" : " as call " + e.consistentCall)
                + (e.onlyCall == null ? "" : " only call " + e.onlyCall.nth + " of " + e.onlyCall.site)
                + (e.test == null ? "" : ": " + Words.shortId(e.test))
                + (inShared ? " (shared JVM)" : "");
        log.info(String.format(
                Locale.ROOT,
                "  [id %d] %s: %s, %s (%.1f s)",
                e.id,
                what,
                failed == 0 ? "all pass" : failed + " failed",
                Words.count(Math.max(0, shuffled.count), "call") + " counted",
                (System.nanoTime() - start) / 1e9));
        return record;
    }

    /** Phase 1's runs, then the candidates' searches: their time left. */
    private Eta phase1;

    /** Phase 1's time as predicted after its first run (ms; -1: none ran here). */
    private long phase1Predicted = -1;

    /**
     * Each phase-1 run's time outside its tests (ms): its JVM's start with the agent, the runner's
     * set-up and the JVM's exit (by the JVM's own clock), and odrust's time around the JVM. A run
     * whose JVM gave no clock counts its whole time less its tests'.
     */
    private final List<Long> overheads = new ArrayList<>();

    /** The first test's time in the clean run (ms): what a JVM's first test pays for what the tests share. */
    private Long firstTestMs;

    private void phase1Costs(String kind, RunResult result, long wallMs) {
        long tests = 0;
        for (RunResult.TestResult r : result.results) {
            if (r.timeMs != null) {
                tests += r.timeMs;
                if (firstTestMs == null && "clean".equals(kind)) {
                    firstTestMs = r.timeMs;
                }
            }
        }
        long outside = 0;
        long jvmMs = 0;
        for (RunResult.Jvm jvm : result.jvms) {
            long[] p = jvm.phases();
            if (p == null) {
                overheads.add(Math.max(0, wallMs - tests));
                return;
            }
            outside += p[0] + p[1] + p[3];
            jvmMs += jvm.millis;
        }
        overheads.add(outside + Math.max(0, wallMs - jvmMs));
    }

    /**
     * Phase 1's price of a run alone in a fresh JVM (ms): its median time outside its tests plus
     * the clean run's first test (docs/id-tests.md, "Estimates"); 0 when phase 1 ran in an
     * earlier invocation.
     */
    long searchPrior() {
        if (overheads.isEmpty()) {
            return 0;
        }
        List<Long> sorted = new ArrayList<>(overheads);
        java.util.Collections.sort(sorted);
        return sorted.get((sorted.size() - 1) / 2) + (firstTestMs == null ? 0 : firstTestMs);
    }

    /** The searches' first run alone in a fresh JVM, as it took (ms); null until one ran here. */
    private Long firstAloneMs;

    /**
     * A search's run alone in a fresh JVM (ms): the geometric mean of {@code prior} (phase 1's
     * price, high when the suite's first test is heavy: it carries the JVM's warm-up and its own
     * work) and {@code measured} (the first such run, of one test only: cheap or dear as that
     * test is); either alone when the other is not known. On commons-jxpath, ormlite-core and
     * mybatis-dynamic-sql the searches then took 0.76-1.13 of the prediction; with the prior
     * alone, 0.36-0.83 (docs/id-tests.md, "Estimates").
     */
    static long freshPrice(long prior, Long measured) {
        if (measured == null || measured <= 0) {
            return prior;
        }
        if (prior <= 0) {
            return measured;
        }
        return Math.round(Math.sqrt((double) prior * measured));
    }

    /** Whether the experiment that ran last ran in a shared JVM (one that may share can go to a fresh one). */
    private boolean lastInShared;

    /** The searches' first run in a shared JVM, as it took (ms, the JVM's start included); null until one ran here. */
    private Long firstSharedMs;

    /**
     * A search's run in a shared JVM (ms): the lower of the clean run's first test (an order's
     * classes are loaded anew there, but no JVM starts) and the first shared run measured (which
     * also started that JVM); each is more than a later shared run costs, and the first test
     * much more when it is heavy (mybatis-dynamic-sql's ran a compiler: 4.2 s, its shared runs
     * 0.6 s, the first 1.0 s). Either alone when the other is not known; 0 when neither is.
     */
    static long sharedPrice(Long firstTest, Long firstShared) {
        if (firstTest == null || firstTest < 0) {
            return firstShared == null ? 0 : Math.max(0, firstShared);
        }
        return firstShared == null || firstShared <= 0 ? firstTest : Math.min(firstTest, firstShared);
    }

    /**
     * What the searches' experiment is predicted to cost (ms) when {@code fresh} of {@code left}
     * run in fresh JVMs ({@link #freshPrice}) and the rest in shared ones ({@link #sharedPrice});
     * the fresh price when the engine does not say.
     */
    long searchPrice(int left, Integer fresh) {
        return searchPrice(left, fresh, searchPrior(), firstAloneMs, firstSharedMs, firstTestMs);
    }

    /**
     * {@link #searchPrice(int, Integer)} from what it knows: phase 1's price of a fresh run
     * ({@code prior}), the searches' first fresh and first shared runs, the clean run's first test
     * (each null when not known).
     */
    static long searchPrice(int left, Integer fresh, long prior, Long firstAlone, Long firstShared, Long firstTest) {
        // with shared JVMs the searches' first run is a shared one, which also started that JVM:
        // a run alone with a JVM's start, as a fresh one is, until a fresh one ran
        long freshMs = freshPrice(prior, firstAlone != null ? firstAlone : firstShared);
        if (fresh == null || left <= 0 || fresh >= left) {
            return freshMs;
        }
        long shared = sharedPrice(firstTest, firstShared);
        return (Math.max(0, fresh) * freshMs + (left - Math.max(0, fresh)) * shared) / left;
    }

    private Eta searches;

    /** The candidate the searches were at when this invocation began them (1: from the start). */
    private int searchesResumedAt = 1;

    private int searching;

    /**
     * The searches in all as predicted once the first test's search ended (its experiments and
     * time, then the engine's prediction for the rest, scaled by what the first took against its
     * own, at the mean cost so far): experiments and ms; null until then, or when an earlier
     * invocation began them. The start's prediction is the engine's from each test's counted
     * calls in phase 1 (docs/id-tests.md, "Estimates"), or a prior of
     * {@link #EXPERIMENTS_PER_CANDIDATE} a test from an engine that does not say.
     */
    private long[] searchesAfterFirst;

    /**
     * Experiments a candidate's search is predicted to take before one ended, when the engine does
     * not predict them: about 8 on commons-jxpath (122 for 15 tests).
     */
    static final int EXPERIMENTS_PER_CANDIDATE = 8;

    /** Says now and then how much is left: phase 1's runs, then the candidates' searches. */
    private void progress(IdStep step, long ms) {
        IdStep.Progress p = step.progress;
        if (p == null) {
            return;
        }
        String left;
        if (p.candidates == null) {
            if (phase1 == null) {
                phase1 = new Eta("phase 1 run", p.phase1Total, 1, 1, 0);
                phase1Predicted = Math.max(1, p.phase1Total - p.phase1Done) * ms;
            }
            phase1.begin();
            phase1.position(p.phase1Done);
            phase1.ran(ms);
            phase1.end();
            left = phase1.due(System.nanoTime());
            if (left != null) {
                left += "; then the tests that failed under a seed are searched";
            }
        } else {
            if (step.experiment != null && !lastInShared) {
                if (firstAloneMs == null) {
                    firstAloneMs = ms;
                }
            } else if (step.experiment != null && firstSharedMs == null) {
                firstSharedMs = ms;
            }
            if (searches == null) {
                searches = p.experimentsLeft != null
                        ? Eta.planned(
                                "test",
                                p.candidates,
                                p.budget,
                                searchPrice(p.experimentsLeft, p.freshLeft),
                                p.experimentsLeft,
                                "from each test's counted calls")
                        : new Eta(
                                "test",
                                p.candidates,
                                EXPERIMENTS_PER_CANDIDATE,
                                p.budget,
                                freshPrice(searchPrior(), firstAloneMs));
                searchesResumedAt = p.candidate;
                log.info("odrust detect-id: " + Words.count(p.candidates, "test") + " failed under a seed; "
                        + searches.prediction());
            }
            if (p.experimentsLeft != null) {
                searches.planned(p.experimentsLeft);
            }
            if (p.candidate != searching) {
                searching = p.candidate;
                searches.begin();
                searches.position(p.candidate - 1);
                if (searchesAfterFirst == null
                        && searchesResumedAt == 1
                        && p.candidate > 1
                        && searches.experiments() > 0) {
                    searchesAfterFirst = new long[] {
                        searches.experiments() + searches.experimentsLeft(), searches.millis() + searches.leftMillis()
                    };
                    log.info(String.format(
                            Locale.ROOT,
                            "odrust detect-id: after the first test's search (%s in %.1f s): predicted ~%s in ~%.0f s in all",
                            Words.count(searches.experiments(), "experiment"),
                            searches.millis() / 1000.0,
                            Words.count((int) searchesAfterFirst[0], "experiment"),
                            searchesAfterFirst[1] / 1000.0));
                }
            }
            searches.ran(ms);
            left = searches.due(System.nanoTime());
        }
        if (left != null) {
            log.info("odrust detect-id: " + left);
        }
    }

    /** The shared JVM that runs candidates alone, started with the shuffle agent; null when it cannot start. */
    private SharedJvm shared;

    private Path sharedJar;
    private int sharedStarted;
    private int sharedRuns;
    private boolean sharedBroken;

    /**
     * The shared JVM for the next run alone: the current one while it may take another order, else a
     * new one; null (the run goes to a fresh JVM) when one cannot start.
     */
    private SharedJvm sharedJvm() {
        if (shared != null && shared.usable()) {
            return shared;
        }
        closeShared();
        if (sharedBroken) {
            return null;
        }
        try {
            if (sharedJar == null) {
                sharedJar = dir.resolve("classpath.jar");
                io.github.odrust.maven.fork.ManifestJar.write(
                        sharedJar, module.classpath, "io.github.odrust.agent.Main");
            }
            sharedStarted++;
            Path options = dir.resolve("shared-jvm-" + sharedStarted + "-options.txt");
            Files.write(
                    options,
                    Shuffle.options(
                                    module,
                                    settings.filter,
                                    null,
                                    new com.google.gson.JsonArray(),
                                    false,
                                    dir.resolve("shared-jvm-" + sharedStarted + "-shuffle.jsonl"),
                                    "odrust:detect-id shared JVM " + sharedStarted
                                            + " (each order brings its own shuffle options)")
                            .getBytes(StandardCharsets.UTF_8));
            TestJvm.Spec spec = module.jvm.withJvmArg(
                    "-javaagent:" + module.agentJar.getAbsolutePath() + "=" + options.toAbsolutePath());
            shared = SharedJvm.start(
                    spec, module.agentJar, sharedJar, dir.resolve("shared-jvm-" + sharedStarted + ".log"));
            return shared;
        } catch (IOException e) {
            sharedBroken = true;
            log.warn("odrust detect-id: could not start a shared JVM (" + e.getMessage()
                    + "); every run goes to a fresh JVM");
            return null;
        }
    }

    private void closeShared() {
        if (shared != null) {
            try {
                shared.close();
            } catch (IOException e) {
                // it is gone
            }
            shared = null;
        }
    }

    /**
     * This invocation's phases, predicted against taken (docs/id-tests.md, "Estimates"): phase 1 as
     * predicted after its first run, the searches at their start and after the first test's
     * search; a phase an earlier invocation ran is left out.
     */
    private com.google.gson.JsonArray phases() {
        com.google.gson.JsonArray phases = new com.google.gson.JsonArray();
        if (phase1 != null) {
            JsonObject o = new JsonObject();
            o.addProperty("phase", "phase 1");
            o.addProperty("experiments", phase1.experiments());
            o.addProperty("actual_ms", phase1.millis());
            o.addProperty("predicted_ms_after_first", phase1Predicted);
            phases.add(o);
        }
        if (searches != null) {
            JsonObject o = new JsonObject();
            o.addProperty("phase", "searches");
            o.addProperty("experiments", searches.experiments());
            o.addProperty("actual_ms", searches.millis());
            if (searchesResumedAt > 1) {
                // an earlier invocation searched the first ones: the prediction was of them all
                o.addProperty("resumed_at_test", searchesResumedAt);
            } else {
                o.addProperty("predicted_experiments", searches.predictedExperiments());
                if (searches.predictedMillis() > 0) {
                    o.addProperty("predicted_ms", searches.predictedMillis());
                }
                if (searchesAfterFirst != null) {
                    o.addProperty("predicted_experiments_after_first", searchesAfterFirst[0]);
                    o.addProperty("predicted_ms_after_first", searchesAfterFirst[1]);
                }
            }
            phases.add(o);
        }
        return phases;
    }

    private JsonObject write(JsonObject outcome, String reproduceTemplate) throws MojoExecutionException {
        JsonObject report = new JsonObject();
        report.addProperty("module", module.id());
        report.addProperty("engine", engine.version());
        report.add("settings", settings.toJson());
        report.add("outcome", outcome);
        report.add("phases", phases());
        JsonObject rendered = engine.call("id_report", new IdReportRequest(module.id(), outcome, reproduceTemplate));
        try {
            ReportWriter.atomicWrite(dir.resolve("report.json"), Json.WIRE.toJson(report) + "\n");
            ReportWriter.atomicWrite(
                    dir.resolve("report.html"), rendered.get("html").getAsString());
            ReportWriter.atomicWrite(
                    dir.resolve("surefire-reports").resolve("TEST-odrust-id.xml"),
                    rendered.get("xml").getAsString());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the ID report in " + dir + ": " + e.getMessage(), e);
        }
        JsonElement text = rendered.get("text");
        if (text != null && !text.isJsonNull()) {
            for (String line : text.getAsString().split("\n")) {
                log.info(line);
            }
        }
        log.info("report: " + dir.resolve("report.json") + ", " + dir.resolve("report.html"));
        return report;
    }
}
