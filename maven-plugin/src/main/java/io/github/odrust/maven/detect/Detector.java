package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Estimate;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.NextStep;
import io.github.odrust.engine.protocol.PlanInfo;
import io.github.odrust.engine.protocol.PlanOrderResponse;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.fork.ForkDirectory;
import io.github.odrust.maven.fork.ManifestJar;
import io.github.odrust.maven.fork.SharedJvm;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The executor side of detection: asks the engine for the next experiment, runs its order in a
 * fresh JVM, appends the outcome to the {@link ExperimentLog}, and repeats until the engine has
 * nothing left to ask. The engine decides everything; this class only runs, records and reports
 * progress.
 *
 * <p>The batched form of {@link PlannerLoop}: the same ask, run, append, ask again, but the engine
 * answers with a batch that runs up to {@code odrust.forks} experiments at once and is appended in
 * the batch's order; the history goes to the engine through a {@link DetectSession} (only new
 * records), the engine is asked again after each record for the progress line and the reports,
 * and the time budget is the plugin's ({@code stop_rounds}). It stays its own loop: those hooks
 * would make {@link PlannerLoop} the bigger of the two for the sake of one caller.
 */
public final class Detector {
    /** Writes the reports from a summary; {@code complete} is false while the run goes on. */
    public interface Reporter {
        void write(JsonObject summary, boolean complete) throws IOException;
    }

    /**
     * Reports are rewritten at least this often while experiments run (and whenever a finding
     * arrives); less often when writing one takes long (a big history: flake rates of many
     * explained tests), so that reports cost at most about a tenth of the run.
     */
    private static final long REPORT_EVERY_NANOS = 30_000_000_000L;

    /** The wait before the next report, after one that took {@code tookNanos}. */
    static long reportInterval(long tookNanos) {
        return Math.max(REPORT_EVERY_NANOS, 10 * tookNanos);
    }

    private final TestModule module;
    private final Engine engine;
    private final DiscoveredSuite suite;
    private final DetectConfig config;
    private final ExperimentLog history;
    private final Path out;
    private final Log log;
    private final long budgetMillis;
    private Reporter reporter = (summary, complete) -> {};
    private int forks = 1;
    /** {@code odrust.isolation=classloader}: the check and the shared JVMs of the rounds; null otherwise. */
    private SharedIsolation isolation;
    /** The engine's state of this run, while it runs. */
    private DetectSession session;
    /** When the last record was appended, and how long the main thread waited for experiments since. */
    private long mainSince = System.nanoTime();

    private long waitedNanos;
    private boolean isolate = true;

    public Detector(
            TestModule module,
            Engine engine,
            DiscoveredSuite suite,
            DetectConfig config,
            ExperimentLog history,
            Path out,
            long budgetMillis,
            Log log) {
        this.module = module;
        this.engine = engine;
        this.suite = suite;
        this.config = config;
        this.history = history;
        this.out = out;
        this.budgetMillis = budgetMillis;
        this.log = log;
    }

    /**
     * Rewrites the reports as findings arrive (a new OD or NOD test) and at least every 30 s
     * (alone runs and explanations included), so that a run that is killed leaves a report of
     * what it knew.
     */
    public Detector reportingWith(Reporter reporter) {
        this.reporter = reporter;
        return this;
    }

    /**
     * Runs up to {@code forks} experiments at once, each in its own JVM and (with {@code isolate})
     * its own working directory and {@code java.io.tmpdir} ({@link ForkDirectory}).
     */
    public Detector forks(int forks, boolean isolate) {
        this.forks = Math.max(1, forks);
        this.isolate = isolate;
        return this;
    }

    /** Runs experiments until the plan is complete; returns the engine's summary, as it sent it. */
    public JsonObject run() throws MojoExecutionException, IOException {
        try (DetectSession s = new DetectSession(engine, suite.toJson(), config, history)) {
            session = s;
            return detect();
        }
    }

    private JsonObject detect() throws MojoExecutionException, IOException {
        mainSince = System.nanoTime();
        if (isolation != null) {
            // A resumed run checks against the baseline and the fresh rounds it recorded (without
            // those, a run resumed after its rounds never checked, so never shared a JVM).
            for (com.google.gson.JsonElement r : history.history()) {
                ExperimentRecord record = ExperimentRecord.of(r);
                boolean freshRound = record.kind == ExperimentKind.ROUND && !"classloader".equals(record.isolation);
                if (record.kind == ExperimentKind.BASELINE || freshRound) {
                    isolation.resumed(r.getAsJsonObject());
                }
            }
        }
        long start = System.nanoTime();
        // One classpath jar for every experiment: the module's classpath does not change.
        Path jar = out.resolve("detect").resolve("classpath.jar");
        ManifestJar.write(jar, module.classpath, "io.github.odrust.agent.Main");
        // The engine's answer gives the progress so far and the batch of experiments to run next;
        // it is asked again after each experiment is recorded (progress) and after each batch.
        JsonObject next = session.next();
        NextStep step = Json.WIRE.fromJson(next, NextStep.class);
        Path recordOptions = null;
        boolean planShown = false;
        if (config.recordBaseline) {
            recordOptions = out.resolve("detect").resolve("record-options.txt");
            RecordOptions.write(recordOptions, module, config.dependenceInclude);
        }
        long lastReport = System.nanoTime();
        long reportEvery = REPORT_EVERY_NANOS;
        int lastFound = -1;
        long baselineMillis = 0;
        JsonObject baselineTime = null;
        ExecutorService pool = Executors.newFixedThreadPool(forks, r -> {
            Thread t = new Thread(r, "odrust-fork");
            t.setDaemon(true);
            return t;
        });
        try {
            while (true) {
                if (!planShown && step.plan != null) {
                    planShown = true;
                    log.info(planLine(step.plan)
                            + sharedPlanText(step.estimate, forks)
                            + EstimateText.perOdTest(step.estimate, forks)
                            + forksText()
                            + cost0Text(baselineTime));
                    // With shared JVMs, the rounds as the engine prices them (fresh until the check).
                    Estimate.Phase rounds = roundsPhase(step.estimate);
                    String warning = costWarning(
                            EstimateText.sharedRounds(rounds, forks) != null
                                    ? Long.valueOf(rounds.leftMs / forks)
                                    : step.plan.predictedMs,
                            budgetMillis);
                    if (warning != null) {
                        log.warn(warning);
                    }
                } else if (!planShown
                        && step.experiment != null
                        && step.experiment.kind == ExperimentKind.ROUND
                        && baselineMillis > 0) {
                    // Random strategies: the rounds cost about one baseline run each.
                    planShown = true;
                    int rounds = step.progress == null ? config.rounds : step.progress.roundsTotal;
                    // The engine's estimate counts odrust's own time around each JVM too.
                    Estimate.Phase planned = roundsPhase(step.estimate);
                    long predicted = planned != null && planned.leftMs > 0
                            ? planned.leftMs / forks
                            : rounds * baselineMillis / forks;
                    String shared = EstimateText.sharedRounds(planned, forks);
                    log.info("plan: " + config.strategy + ": " + Words.count(rounds, "round")
                            + " of the whole suite, predicted "
                            + duration(predicted)
                            + (shared != null
                                    ? " from the baseline: " + shared + (forks > 1 ? ", " + forks + " at a time" : "")
                                    : " (" + seconds(predicted * forks / Math.max(1, rounds))
                                            + " per round, from the baseline"
                                            + (forks > 1 ? ", " + forks + " at a time" : "") + ")")
                            + EstimateText.perOdTest(step.estimate, forks)
                            + forksText() + cost0Text(baselineTime));
                    if (step.targeted != null) {
                        log.info("plan: " + step.targeted.text);
                    }
                    String warning = costWarning(predicted, budgetMillis);
                    if (warning != null) {
                        log.warn(warning);
                    }
                }
                if (budgetSpent(start)) {
                    next = session.next();
                    step = Json.WIRE.fromJson(next, NextStep.class);
                }
                if (step.experiment == null) {
                    break;
                }
                // The history echoes each experiment object exactly as the engine sent it.
                List<JsonObject> echoes = new ArrayList<>();
                if (next.has("batch") && next.getAsJsonArray("batch").size() > 0) {
                    next.getAsJsonArray("batch").forEach(e -> echoes.add(e.getAsJsonObject()));
                } else {
                    echoes.add(next.getAsJsonObject("experiment"));
                }
                List<Experiment> batch = new ArrayList<>();
                for (JsonObject echo : echoes) {
                    batch.add(Json.WIRE.fromJson(echo, Experiment.class));
                }
                // Up to `forks` experiments of the batch at once; their records are appended in
                // the batch's order, whichever finishes first, so the plan never depends on timing.
                CompletionService<Done> running = new ExecutorCompletionService<>(pool);
                Done[] done = new Done[batch.size()];
                int started = 0;
                int inFlight = 0;
                int appended = 0;
                while (appended < batch.size()) {
                    while (inFlight < forks
                            && started < batch.size()
                            && (!config.stopRounds || continuesAfterStop(batch.get(started)))) {
                        int at = started++;
                        Experiment exp = batch.get(at);
                        Path orderFile = writeOrder(exp);
                        Path recording =
                                recordOptions != null && exp.kind == ExperimentKind.BASELINE ? recordOptions : null;
                        boolean inShared = sharedFor(exp, jar);
                        running.submit(() -> runOne(at, exp, orderFile, jar, recording, inShared));
                        inFlight++;
                    }
                    if (inFlight == 0) {
                        break;
                    }
                    long waitFrom = System.nanoTime();
                    Done d = take(running);
                    waitedNanos += System.nanoTime() - waitFrom;
                    inFlight--;
                    done[d.index] = d;
                    while (appended < batch.size() && done[appended] != null) {
                        Done a = done[appended];
                        done[appended] = null;
                        appended++;
                        Experiment exp = a.experiment;
                        // The main thread's own time since the record before: engine calls, reports, order files.
                        long mainMillis = (System.nanoTime() - mainSince - waitedNanos) / 1_000_000;
                        history.append(record(echoes.get(a.index), a.result, a.millis, Math.max(0, mainMillis)));
                        mainSince = System.nanoTime();
                        waitedNanos = 0;
                        if (isolation != null) {
                            isolation.ran(exp, a.result);
                        }
                        if (exp.kind == ExperimentKind.BASELINE) {
                            baselineMillis = Math.max(baselineMillis, a.millis);
                            baselineTime = history.history()
                                    .get(history.size() - 1)
                                    .getAsJsonObject()
                                    .getAsJsonObject("time");
                        }
                        if (recordOptions != null
                                && exp.kind == ExperimentKind.BASELINE
                                && !a.result.results.isEmpty()
                                && a.result.results.stream().allMatch(t -> t.reads == null && t.writes == null)) {
                            log.warn(config.strategy
                                    + ": the baseline recorded no static field access at all (the jvm-agent's"
                                    + " recording did not start; its reason is in "
                                    + out.resolve("detect")
                                            .resolve("exp-" + exp.id)
                                            .resolve("jvm-1.log") + "): "
                                    + config.withoutRecording);
                        }
                        next = session.next();
                        step = Json.WIRE.fromJson(next, NextStep.class);
                        boolean ranShared = !a.result.jvms.isEmpty() && a.result.jvms.get(0).shared;
                        log.info(progressLine(exp, step.progress, a.millis)
                                + EstimateText.left(exp, step.progress, step.estimate, forks, explaining(step))
                                + (ranShared ? "  (shared JVM)" : ""));
                        int found = step.progress.odFound + step.progress.nodFound;
                        if (step.experiment != null
                                && (found != lastFound || System.nanoTime() - lastReport >= reportEvery)) {
                            long t = System.nanoTime();
                            reporter.write(session.summary(), false);
                            lastReport = System.nanoTime();
                            reportEvery = reportInterval(lastReport - t);
                            lastFound = found;
                        }
                    }
                    budgetSpent(start);
                }
                next = session.next();
                step = Json.WIRE.fromJson(next, NextStep.class);
            }
        } finally {
            // A failure ends the run: the other forks' JVMs are killed (TestJvm kills a tree on interrupt).
            pool.shutdownNow();
            if (isolation != null) {
                isolation.close();
            }
            try {
                Files.deleteIfExists(out.resolve("forks"));
            } catch (IOException e) {
                // not empty: an experiment's directory could not be deleted; it stays for a look
            }
        }
        return session.summary();
    }

    /** The explanation experiments of the batch {@code step} hands out (0 when its next is none). */
    static int explaining(NextStep step) {
        if (step.experiment == null || !step.experiment.kind.isMinimize()) {
            return 0;
        }
        return Math.max(1, step.batch.size());
    }

    /**
     * "; each JVM starts in 0.9 s before its first test (...)" from the baseline's time, or "" when
     * its JVM did not report its clock.
     */
    static String cost0Text(JsonObject time) {
        if (time == null || !time.has("boot_ms")) {
            return "";
        }
        long boot = time.get("boot_ms").getAsLong();
        long setup = time.get("setup_ms").getAsLong();
        long exit = time.get("exit_ms").getAsLong();
        return "; start-up cost per experiment " + seconds(boot + setup + exit) + " in the baseline (JVM boot "
                + seconds(boot) + ", JUnit start and first class " + seconds(setup) + ", launch and exit "
                + seconds(exit) + ")";
    }

    /** Runs the rounds in shared JVMs with fresh class loaders once the module passed the check (docs/isolation.md). */
    public Detector classloaderIsolation(boolean on) {
        this.isolation = on ? new SharedIsolation(module, engine, suite, out, log, forks > 1 && isolate) : null;
        config.sharedAfterRounds = on ? SharedIsolation.FRESH_ROUNDS : null;
        return this;
    }

    /** " (2 forks at a time)" in the plan line when more than one. */
    private String forksText() {
        return forks > 1 ? "; " + forks + " experiments at a time (odrust.forks)" : "";
    }

    /**
     * Whether the time budget is used up now; the first time, says so and sets the engine's
     * {@code stop_rounds}.
     */
    private boolean budgetSpent(long start) {
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        if (budgetMillis > 0 && elapsed >= budgetMillis && !config.stopRounds) {
            config.stopRounds = true;
            log.info("time budget of " + (budgetMillis >= 1000 ? budgetMillis / 1000 + " s" : budgetMillis + " ms")
                    + " used: no new round, alone run or explanation starts; a pending confirmation finishes"
                    + " (resume later with -Dodrust.resume=true)");
            return true;
        }
        return false;
    }

    /** What still starts once the time budget is spent: the baseline and pending confirmations. */
    static boolean continuesAfterStop(Experiment exp) {
        return exp.kind == ExperimentKind.BASELINE
                || exp.kind == ExperimentKind.CONFIRM_FAIL
                || exp.kind == ExperimentKind.CONFIRM_PASS;
    }

    /** One experiment that ran. */
    private static final class Done {
        final int index;
        final Experiment experiment;
        final RunResult result;
        final long millis;

        Done(int index, Experiment experiment, RunResult result, long millis) {
            this.index = index;
            this.experiment = experiment;
            this.result = result;
            this.millis = millis;
        }
    }

    /** Runs one experiment (on a fork's thread): its own directory when several run at once. */
    private Done runOne(int index, Experiment exp, Path orderFile, Path jar, Path recording, boolean inShared)
            throws Exception {
        Path dir = out.resolve("detect").resolve("exp-" + exp.id);
        OrderRunner runner =
                new OrderRunner(module, engine, suite, dir, log).quiet().classpathJar(jar);
        SharedJvm shared = inShared ? isolation.take(jar) : null;
        if (shared != null) {
            runner.shared(shared);
        }
        if (recording != null) {
            runner.recording(recording);
        }
        ForkDirectory isolated = null;
        if (forks > 1 && isolate) {
            try {
                isolated = ForkDirectory.create(
                        out.resolve("forks").resolve("exp-" + exp.id), module.jvm.workingDirectory, out);
            } catch (IOException e) {
                throw new MojoExecutionException(
                        "odrust could not make experiment " + exp.id + "'s own working directory under "
                                + out.resolve("forks") + " (" + e.getMessage()
                                + "). Run with -Dodrust.forks.isolate=false to run every"
                                + " fork in the module's working directory, or -Dodrust.forks=1.",
                        e);
            }
            runner.jvm(module.jvm.isolated(isolated.work, isolated.tmp));
        }
        PlanOrderResponse plan = exp.plan();
        if (plan != null) {
            runner.planned(plan);
        }
        long t0 = System.nanoTime();
        RunResult result;
        try {
            result = runner.run(
                    String.join("\n", exp.order), orderFile.getFileName().toString());
        } finally {
            if (isolated != null) {
                isolated.delete();
            }
            if (shared != null) {
                isolation.give(shared);
            }
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        if (!Boolean.TRUE.equals(result.honoured)) {
            throw new MojoExecutionException("odrust could not run experiment " + exp.id + " in the order it planned ("
                    + result.firstDifference + "); stopping rather than report outcomes of another order. Details: "
                    + dir.resolve("result.json"));
        }
        return new Done(index, exp, result, millis);
    }

    /**
     * Whether {@code exp} runs in a shared JVM ({@code odrust.isolation=classloader}): what the
     * engine planned shareable (rounds, explanation experiments), once the module passed the check,
     * which runs before the first of them after two rounds ran in fresh JVMs (docs/isolation.md).
     */
    private boolean sharedFor(Experiment exp, Path jar) throws IOException, MojoExecutionException {
        if (isolation == null || !Boolean.TRUE.equals(exp.shareable)) {
            return false;
        }
        // The check's JVMs are not odrust's own time (the records' odrust_ms); its orders are in
        // detect/isolation-check/.
        long t = System.nanoTime();
        boolean usable = isolation.usable(jar);
        waitedNanos += System.nanoTime() - t;
        return usable;
    }

    /** The next experiment to finish; its failure is this run's. */
    private static Done take(CompletionService<Done> running) throws MojoExecutionException, IOException {
        try {
            return running.take().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("odrust detect was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof MojoExecutionException) {
                throw (MojoExecutionException) cause;
            }
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new MojoExecutionException("an experiment failed: " + cause, cause);
        }
    }

    private Path writeOrder(Experiment exp) throws IOException {
        Path file = OrderFiles.file(out, exp.id);
        Files.createDirectories(file.getParent());
        Files.write(
                file,
                OrderFiles.text(exp.id, exp.kind.toString(), exp.round, exp.strategy, config.seed, exp.order)
                        .getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static JsonObject record(JsonObject exp, RunResult result, long millis, long mainMillis) {
        JsonObject r = exp.deepCopy();
        // The segments came with the experiment to run it; the history keeps the order alone.
        r.remove("segments");
        r.add("results", result.resultsJson());
        if (!result.classStates.isEmpty()) {
            r.add("class_state", Json.WIRE.toJsonTree(result.classStates));
        }
        r.addProperty("honoured", result.honoured);
        r.addProperty("millis", millis);
        r.add("time", time(result, millis, mainMillis));
        if (!result.jvms.isEmpty() && result.jvms.get(0).shared) {
            r.addProperty("isolation", "classloader");
        }
        return r;
    }

    /**
     * Where an experiment's time went (docs/protocol.md, "Detection"): its JVMs' wall time, split
     * by their own clocks when every JVM reported it, and odrust's time: the rest of the
     * experiment's wall time (planning and checking the order, writing result.json) plus
     * {@code mainMillis}, the engine calls and reports since the experiment before.
     */
    static JsonObject time(RunResult result, long millis, long mainMillis) {
        long jvmMillis = 0;
        long[] parts = new long[4];
        boolean split = !result.jvms.isEmpty();
        for (RunResult.Jvm jvm : result.jvms) {
            jvmMillis += jvm.millis;
            long[] p = jvm.phases();
            if (p == null) {
                split = false;
            } else {
                for (int i = 0; i < 4; i++) {
                    parts[i] += p[i];
                }
            }
        }
        JsonObject t = new JsonObject();
        t.addProperty("jvm_ms", jvmMillis);
        if (split) {
            t.addProperty("boot_ms", parts[0]);
            t.addProperty("setup_ms", parts[1]);
            t.addProperty("tests_ms", parts[2]);
            t.addProperty("exit_ms", parts[3]);
        }
        t.addProperty("odrust_ms", Math.max(0, millis - jvmMillis) + mainMillis);
        return t;
    }

    /**
     * After a systematic plan's line, with {@code odrust.isolation=classloader}: its prediction
     * with the orders after the isolation check in shared JVMs, or "" when none is predicted there.
     */
    private static String sharedPlanText(Estimate estimate, int forks) {
        Estimate.Phase rounds = roundsPhase(estimate);
        String shared = EstimateText.sharedRounds(rounds, forks);
        return shared == null
                ? ""
                : "; with shared JVMs predicted " + duration(rounds.leftMs / Math.max(1, forks)) + ": " + shared;
    }

    /** The rounds' phase of the engine's estimate, or null (before the baseline ended). */
    private static Estimate.Phase roundsPhase(Estimate estimate) {
        return estimate == null
                ? null
                : estimate.phases.stream()
                        .filter(p -> "rounds".equals(p.phase))
                        .findFirst()
                        .orElse(null);
    }

    /**
     * The plan of a systematic strategy, printed before its first round: orders, test executions
     * and predicted time, and for dependence-aware what it saves over tuscan.
     */
    static String planLine(PlanInfo plan) {
        StringBuilder b = new StringBuilder("plan: ")
                .append(plan.strategy)
                .append(": ")
                .append(plan.orders)
                .append(" orders, ")
                .append(plan.executions)
                .append(" test executions, ")
                .append(plan.pairs)
                .append(" pairs to cover");
        if (plan.predictedMs != null) {
            b.append(", predicted ")
                    .append(duration(plan.predictedMs))
                    .append(" (")
                    .append(seconds(plan.cost0Ms))
                    .append(" per JVM start + test times, from the baseline)");
        }
        if (plan.usesTuscan()) {
            b.append("; tuscan's orders, because covering only the ")
                    .append(plan.dependentPairs)
                    .append(" pairs that may interact was predicted to cost more");
        } else if (plan.tuscan != null) {
            PlanInfo t = plan.tuscan;
            b.append("; tuscan would run ")
                    .append(t.orders)
                    .append(" orders, ")
                    .append(t.executions)
                    .append(" test executions, ")
                    .append(t.pairs)
                    .append(" pairs");
            if (t.predictedMs != null) {
                b.append(", predicted ").append(duration(t.predictedMs));
            }
        }
        if (plan.unrecorded != null && plan.unrecorded > 0) {
            b.append("; ")
                    .append(plan.unrecorded)
                    .append(" tests have no recorded field accesses and are treated as touching everything");
        }
        return b.toString();
    }

    static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** A duration a person reads at a glance: 10.9 s, 4.5 min, 12 min, 3.4 h, 4.9 days. */
    static String duration(long ms) {
        return io.github.odrust.maven.core.Eta.duration(ms);
    }

    /** Predicted costs above this get a warning before the first round. */
    static final long LONG_RUN_MILLIS = 3_600_000;

    /**
     * A plain warning when the predicted time of the rounds is over an hour and no time budget
     * shorter than it is set; null otherwise.
     */
    static String costWarning(Long predictedMs, long budgetMillis) {
        if (predictedMs == null || predictedMs <= LONG_RUN_MILLIS || (budgetMillis > 0 && budgetMillis < predictedMs)) {
            return null;
        }
        return "this run is predicted to take " + duration(predictedMs) + " on one JVM at a time (JVM starts and test"
                + " times only; odrust's own time comes on top). To bound it: -Dodrust.timeBudget=30m (stops the rounds"
                + " and reports what was found, resumable), fewer -Dodrust.rounds, or -Dodrust.strategy=dependence-aware"
                + " (only the pairs of tests that share a static field).";
    }

    private String progressLine(Experiment exp, NextStep.Progress progress, long millis) {
        return progressLine(exp, progress, millis, config.shard != null);
    }

    /**
     * One line per experiment, in columns that stay aligned however many rounds and experiments
     * there are (the seed is in the plan line, once); for a shard ({@code sharded}) rounds count
     * as this run's and name the plan's number. What is left comes after it ({@link EstimateText#left}).
     */
    static String progressLine(Experiment exp, NextStep.Progress progress, long millis, boolean sharded) {
        ExperimentKind kind = exp.kind;
        int done = progress.roundsDone;
        int total = progress.roundsTotal;
        StringBuilder b = new StringBuilder(String.format(java.util.Locale.ROOT, "exp %-5d ", exp.id));
        if (kind == ExperimentKind.ROUND) {
            int digits = String.valueOf(Math.max(total, 1)).length();
            // A shard's rounds are the plan's rounds K, K + N, ...: counted as this run's, numbered as the plan's.
            boolean shard = sharded && exp.round != null;
            int number = shard ? done : exp.round;
            String round = String.format(java.util.Locale.ROOT, "%" + digits + "d/%d", number, total);
            b.append(String.format(
                    java.util.Locale.ROOT,
                    "%-16s %-30s",
                    "round " + round,
                    shard ? exp.strategy + ", plan round " + exp.round : exp.strategy));
        } else {
            List<String> targets = exp.targets;
            b.append(String.format(
                    java.util.Locale.ROOT,
                    "%-16s %-30s",
                    kind,
                    targets == null || targets.isEmpty() ? "" : Words.shortId(targets.get(0))));
        }
        b.append(String.format(java.util.Locale.ROOT, " %6.1fs", millis / 1000.0));
        b.append(String.format("  found %d OD, %d NOD", progress.odFound, progress.nodFound));
        return b.toString();
    }
}
