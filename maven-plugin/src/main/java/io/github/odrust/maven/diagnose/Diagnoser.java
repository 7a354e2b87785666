package io.github.odrust.maven.diagnose;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.agent.format.AgentOptions;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.DiagnoseRequest;
import io.github.odrust.engine.protocol.DiagnoseStep;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.core.Eta;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.DetectInput;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.PlannerLoop;
import io.github.odrust.maven.run.CodeDigest;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * The diagnose loop (docs/diagnose.md): for each victim and brittle of report.json (or the one
 * asked for), asks the engine ({@code diagnose_next}) for the next capture or restore experiment,
 * runs it with the jvm-agent in diagnose mode, records it in {@code diagnose/experiments.jsonl},
 * and writes each verdict to {@code diagnose/diagnose.json} and, as {@code polluted_state}, to the
 * test's entry in report.json.
 */
public final class Diagnoser {
    /** What the user asked for. */
    public static final class Settings {
        public String test;
        public Integer budget;
        public int captureLimit = 200_000;
        public final List<String> include = new ArrayList<>();
    }

    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final Path out;
    private final Path dir;
    private final Settings settings;
    private final Log log;
    private String fingerprint;
    private io.github.odrust.maven.core.ProjectRoots roots;
    private final java.util.Map<String, List<String>> unreachableByClass = new java.util.HashMap<>();
    private ExperimentLog history;
    private JsonObject diagnoseFile;
    /** odrust:diagnose's time left, test by test (none when odrust:repair diagnoses). */
    private Eta eta;

    /**
     * Experiments a test's diagnosis is predicted to take before one ended: 6 each on light-4j
     * `config`, 3 on visualee (docs/diagnose-real-projects.md); a cause's other tests take one.
     */
    static final int EXPERIMENTS_PER_TEST = 6;

    /** Experiments a cause's other test is predicted to take: the restore of the cause's diagnosis. */
    static final int EXPERIMENTS_PER_OTHER_TEST = 1;

    /** The engine's budget per test when none is set (Rust: {@code diagnose::DEFAULT_DIAGNOSE_BUDGET}). */
    static final int DEFAULT_BUDGET = 40;

    public Diagnoser(Engine engine, TestModule module, DiscoveredSuite suite, Path out, Settings settings, Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.out = out;
        this.dir = out.resolve("diagnose");
        this.settings = settings;
        this.log = log;
    }

    /**
     * What one diagnosis experiment is predicted to cost (ms) before one ran: a fresh JVM's start-up
     * (detect's {@code cost0_ms}) and the tests it runs, a target with the first of its polluters
     * (or of its state-setters), at their times in the detect run that showed it fail
     * ({@code detect/exp-N/result.json}), averaged over the targets; detect's mean experiment when
     * neither is known (docs/detect.md, "Estimates").
     */
    static long perExperiment(Path out, Summary.TimeSpent time, List<Summary.FlakyTest> targets) {
        long fallback = Eta.perExperiment(time);
        if (time == null || time.cost0Ms == null) {
            return fallback;
        }
        java.util.Map<Integer, java.util.Map<String, Long>> runs = new java.util.HashMap<>();
        long sum = 0;
        int priced = 0;
        for (Summary.FlakyTest target : targets) {
            java.util.Map<String, Long> times =
                    runs.computeIfAbsent(target.failingExperiment, id -> testTimes(out, id));
            List<String> tests = new ArrayList<>();
            tests.add(target.test);
            List<List<String>> culprits = "brittle".equals(target.kind) ? target.stateSetters : target.polluters;
            if (culprits != null && !culprits.isEmpty()) {
                tests.addAll(culprits.get(0));
            }
            long ms = 0;
            boolean known = true;
            for (String t : tests) {
                Long m = times.get(t);
                known &= m != null;
                ms += m == null ? 0 : m;
            }
            if (known) {
                sum += ms;
                priced++;
            }
        }
        return priced == 0 ? fallback : time.cost0Ms + sum / priced;
    }

    /** Each test's time in detect's experiment {@code id} (empty when its result cannot be read). */
    private static java.util.Map<String, Long> testTimes(Path out, int id) {
        java.util.Map<String, Long> times = new java.util.HashMap<>();
        Path file = out.resolve("detect").resolve("exp-" + id).resolve("result.json");
        try {
            JsonObject result = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8))
                    .getAsJsonObject();
            for (JsonElement e : result.getAsJsonArray("results")) {
                JsonObject r = e.getAsJsonObject();
                JsonElement ms = r.get("time_ms");
                if (r.has("test") && ms != null && !ms.isJsonNull()) {
                    times.merge(r.get("test").getAsString(), ms.getAsLong(), Long::sum);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not priced from it
        }
        return times;
    }

    /** Checks report.json and the test before anything runs. */
    public static void checkInput(Path out, String engineVersion, String test) throws MojoFailureException {
        DetectInput.load(out, engineVersion, "odrust:diagnose", "diagnoses").targets(test);
    }

    /** Diagnoses every target; returns the verdicts (diagnose.json's entries). */
    public List<JsonObject> run() throws MojoExecutionException, MojoFailureException {
        DetectInput input = DetectInput.load(out, engine.version(), "odrust:diagnose", "diagnoses");
        List<Summary.FlakyTest> targets = input.targets(settings.test);
        List<JsonObject> verdicts = new ArrayList<>();
        if (targets.isEmpty()) {
            log.info("odrust diagnose: " + input.reportFile + " has no victim or brittle: nothing to diagnose.");
            return verdicts;
        }
        // a cause's tests after its first mostly check its diagnosis: one restore each
        java.util.Set<Integer> causes = new java.util.HashSet<>();
        int followers = 0;
        for (Summary.FlakyTest target : targets) {
            io.github.odrust.engine.protocol.Cause cause = input.report.causeOf(target.test);
            if (cause != null && !causes.add(cause.id)) {
                followers++;
            }
        }
        eta = new Eta(
                "test",
                targets.size() - followers,
                EXPERIMENTS_PER_TEST,
                followers,
                EXPERIMENTS_PER_OTHER_TEST,
                settings.budget != null ? settings.budget : DEFAULT_BUDGET,
                perExperiment(out, input.report.summary.time, targets));
        log.info("odrust diagnose: " + module.id() + ", " + Words.count(targets.size(), "order-dependent test") + "; "
                + eta.prediction() + "; experiments in " + dir.resolve("experiments.jsonl"));
        java.util.Set<Integer> begun = new java.util.HashSet<>();
        // One diagnosis per root cause: the first confirmed one is verified for the cause's
        // other tests with one restore each (and made anew for a test it does not explain).
        java.util.Map<Integer, DiagnoseRequest.Shared> byCause = new java.util.HashMap<>();
        for (Summary.FlakyTest target : targets) {
            io.github.odrust.engine.protocol.Cause cause = input.report.causeOf(target.test);
            DiagnoseRequest.Shared shared = cause == null ? null : byCause.get(cause.id);
            eta.begin(shared != null, cause != null && !begun.add(cause.id));
            JsonObject verdict = diagnose(target, input.reportFile, shared);
            eta.end();
            verdicts.add(verdict);
            DiagnoseRequest.Shared made = DiagnoseRequest.Shared.of(verdict);
            if (cause != null && shared == null && made != null) {
                byCause.put(cause.id, made);
            }
        }
        log.info("odrust diagnose: " + eta.outcome());
        if (diagnoseFile != null) {
            com.google.gson.JsonArray phases = new com.google.gson.JsonArray();
            phases.add(eta.phase("diagnose", history.loaded()));
            diagnoseFile.add("phases", phases);
            DiagnoseFile.write(dir.resolve("diagnose.json"), diagnoseFile);
        }
        return verdicts;
    }

    /**
     * Diagnoses one victim or brittle (odrust:repair calls this for each victim): runs what the
     * engine asks, then records the verdict in diagnose.json and in report.json.
     */
    public JsonObject diagnose(Summary.FlakyTest target, Path reportFile) throws MojoExecutionException {
        return diagnose(target, reportFile, null);
    }

    /** As {@link #diagnose(Summary.FlakyTest, Path)}, trying {@code shared} (its cause's diagnosis) first. */
    public JsonObject diagnose(Summary.FlakyTest target, Path reportFile, DiagnoseRequest.Shared shared)
            throws MojoExecutionException {
        try {
            if (fingerprint == null) {
                fingerprint = fingerprint(CodeDigest.of(module), settings, roots().jars);
                sayRoots();
                Path file = dir.resolve("experiments.jsonl");
                history = Files.exists(file) ? ExperimentLog.load(file) : ExperimentLog.create(file);
                diagnoseFile =
                        DiagnoseFile.read(dir.resolve("diagnose.json"), module.id(), engine.version(), log::warn);
            }
        } catch (IOException e) {
            throw new MojoExecutionException("odrust:diagnose cannot prepare " + dir + ": " + e.getMessage(), e);
        }
        JsonObject verdict = diagnose(target, fingerprint, history, shared);
        DiagnoseFile.put(diagnoseFile, verdict);
        DiagnoseFile.write(dir.resolve("diagnose.json"), diagnoseFile);
        DiagnoseFile.intoReport(reportFile, verdict, engine);
        return verdict;
    }

    private JsonObject diagnose(
            Summary.FlakyTest target, String fingerprint, ExperimentLog history, DiagnoseRequest.Shared shared)
            throws MojoExecutionException {
        DiagnoseRequest request = new DiagnoseRequest();
        request.target = new DiagnoseRequest.Target();
        request.target.test = target.test;
        request.target.kind = target.kind;
        request.target.polluters = target.polluters;
        request.target.stateSetters = target.stateSetters;
        request.target.fingerprint = fingerprint;
        request.target.shared = shared;
        request.target.unreachable = unreachable(target.test);
        request.budget = settings.budget;
        long stale = 0;
        for (JsonElement el : history.history()) {
            JsonObject r = el.getAsJsonObject();
            if (target.test.equals(r.get("test").getAsString())
                    && (!r.has("fingerprint")
                            || !fingerprint.equals(r.get("fingerprint").getAsString()))) {
                stale++;
            }
        }
        if (stale > 0) {
            log.info("odrust diagnose: " + Words.count(stale, "recorded experiment") + " of " + target.test
                    + " ran against other code or other capture settings (odrust.diagnose.include,"
                    + " odrust.diagnose.limit): not reused, capturing again");
        }
        // Only this fingerprint's records: what the engine replays.
        PlannerLoop<DiagnoseStep> loop = new PlannerLoop<>(
                history,
                request.history,
                r -> target.test.equals(r.get("test").getAsString())
                        && r.has("fingerprint")
                        && fingerprint.equals(r.get("fingerprint").getAsString()));
        loop.sayResumed(log, "diagnosis of " + target.test);
        if (eta != null) {
            loop.after((step, record, ms) -> eta.ran(ms, left -> log.info("odrust diagnose: " + left)));
        }
        DiagnoseStep done = loop.run(new PlannerLoop.Goal<DiagnoseStep>() {
            @Override
            public DiagnoseStep next(int nextId) {
                request.nextId = nextId;
                return engine.call("diagnose_next", request, DiagnoseStep.class);
            }

            @Override
            public boolean done(DiagnoseStep step) {
                return step.isDone();
            }

            @Override
            public JsonObject run(DiagnoseStep step) throws MojoExecutionException {
                return runExperiment(step.experiment, fingerprint);
            }

            @Override
            public String name(DiagnoseStep step) {
                return "diagnose experiment " + step.experiment.id;
            }
        });
        return done.outcome;
    }

    /**
     * What a diagnose record is a fact about: the module's compiled code and what a capture holds
     * (the include prefixes, the size limit). A record of other settings is not replayed.
     */
    static String fingerprint(String codeDigest, Settings settings, List<File> jars) {
        java.util.List<String> include = new ArrayList<>(settings.include);
        java.util.Collections.sort(include);
        for (File jar : jars) {
            include.add("jar:" + jar.getName());
        }
        // "points": records of an agent that acted only at the test's start are not replayed.
        String all =
                codeDigest + "\ninclude=" + String.join(",", include) + "\nlimit=" + settings.captureLimit + "\npoints";
        return CodeDigest.sha256(all.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
    }

    private JsonObject runExperiment(DiagnoseStep.Experiment e, String fingerprint) throws MojoExecutionException {
        Path expDir = dir.resolve("exp-" + e.id);
        Path options = expDir.resolve("agent-options.txt");
        Path capture = e.kind.startsWith("capture") ? expDir.resolve("capture.xml") : null;
        Path agentResult = expDir.resolve("agent-result.json");
        try {
            Files.createDirectories(expDir);
            Files.deleteIfExists(agentResult);
            if (capture != null) {
                Files.deleteIfExists(capture);
            }
            Files.write(options, options(e, capture, agentResult).getBytes(StandardCharsets.UTF_8));
        } catch (IOException ex) {
            throw new MojoExecutionException("cannot write " + options + ": " + ex.getMessage(), ex);
        }
        long start = System.nanoTime();
        OrderRunner runner =
                new OrderRunner(module, engine, suite, expDir, log).quiet().recording(options);
        RunResult result = runner.run(String.join("\n", e.order), "diagnose experiment " + e.id);
        JsonObject record = Json.WIRE.toJsonTree(e).getAsJsonObject();
        record.addProperty("fingerprint", fingerprint);
        record.add("results", result.resultsJson());
        record.addProperty("honoured", Boolean.TRUE.equals(result.honoured));
        JsonObject agent = readAgentResult(agentResult);
        if (agent != null && agent.has("error")) {
            record.add("error", agent.get("error"));
        }
        if (agent != null && agent.has("restored")) {
            record.add("restored", agent.get("restored"));
        }
        if (agent != null && agent.has("point")) {
            record.add("acted_at", agent.get("point"));
        }
        if (capture != null && Files.isRegularFile(capture)) {
            record.addProperty("capture", capture.toAbsolutePath().toString());
        }
        String mine = "";
        for (RunResult.TestResult r : result.results) {
            if (r.test.equals(e.test) || r.test.startsWith(e.test + "[")) {
                mine = r.outcome;
            }
        }
        String what = e.kind.equals("restore") ? "restore " + Words.count(e.fields.size(), "field") : e.kind;
        log.info(String.format(
                Locale.ROOT,
                "  [diagnose %d] %s: %s %s (%.1f s)",
                e.id,
                what,
                Words.shortId(e.test),
                mine.toUpperCase(Locale.ROOT),
                (System.nanoTime() - start) / 1e9));
        return record;
    }

    /** Classes of the module's class directories that the test's class cannot reach (listed last). */
    private List<String> unreachable(String test) {
        int hash = test.indexOf('#');
        String cls = hash < 0 ? test : test.substring(0, hash);
        // Each call reads every class file of the module: once per test class.
        return unreachableByClass.computeIfAbsent(cls, c -> {
            io.github.odrust.engine.protocol.ReachRequest r = new io.github.odrust.engine.protocol.ReachRequest();
            roots().directories.forEach(d -> r.classDirs.add(d.getAbsolutePath()));
            r.from.add(c);
            return engine.call("reachable_classes", r, io.github.odrust.engine.protocol.ReachRequest.Response.class)
                    .unreachable;
        });
    }

    private io.github.odrust.maven.core.ProjectRoots roots() {
        if (roots == null) {
            roots = io.github.odrust.maven.core.ProjectRoots.of(module);
        }
        return roots;
    }

    /** Says once what a capture holds besides the module's classes. */
    private void sayRoots() {
        List<File> jars = roots().jars;
        List<String> names = new ArrayList<>();
        jars.forEach(j -> names.add(j.getName()));
        log.info("odrust diagnose: captures the static state of the classes of "
                + (roots().directories.size() == 1
                        ? "1 class directory"
                        : roots().directories.size() + " class directories")
                + (jars.isEmpty()
                        ? ""
                        : " and of the project's own " + Words.count(jars.size(), "jar") + " ("
                                + String.join(", ", names) + ")")
                + (settings.include.isEmpty()
                        ? "; other libraries' state with -Dodrust.diagnose.include=<package prefix>"
                        : ", and of classes under " + String.join(", ", settings.include)));
    }

    private String options(DiagnoseStep.Experiment e, Path capture, Path agentResult) {
        AgentOptions.Writer w = new AgentOptions.Writer()
                .comment("odrust:diagnose experiment " + e.id + " (docs/diagnose.md)")
                .mode("diagnose");
        roots().all().forEach(w::root);
        settings.include.forEach(w::include);
        w.test(e.test).occurrence(e.occurrence).result(agentResult);
        if (capture != null) {
            w.capture(capture).captureLimit(settings.captureLimit);
        }
        e.initialize.forEach(w::initialize);
        if (e.point != null) {
            w.point(e.point);
        }
        if (e.restoreFrom != null) {
            w.restoreFrom(e.restoreFrom);
            e.fields.forEach(w::restoreField);
        }
        return w.text();
    }

    private static JsonObject readAgentResult(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            JsonElement e = JsonParser.parseString(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
            return e.isJsonObject() ? e.getAsJsonObject() : null;
        } catch (IOException | RuntimeException ex) {
            return null;
        }
    }
}
