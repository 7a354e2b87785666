package io.github.odrust.maven.audit;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.agent.format.AgentOptions;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.AuditReportRequest;
import io.github.odrust.engine.protocol.AuditRequest;
import io.github.odrust.engine.protocol.AuditStep;
import io.github.odrust.maven.core.ProjectRoots;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.PlannerLoop;
import io.github.odrust.maven.detect.ReportWriter;
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
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The audit loop (docs/audit.md): asks the engine ({@code audit_next}) for the next run (every class
 * twice, a candidate confirmed in a fresh JVM, the original order traced or captured), runs it —
 * with the jvm-agent in audit mode when it captures — records it in {@code audit/experiments.jsonl}
 * as it ends (with the agent's capture points), and writes what the engine found to {@code
 * audit/report.json}, {@code audit/report.html} and the console. A killed run resumes from its
 * records; a run with other settings first moves the earlier run's directory aside.
 */
public final class Auditor {
    /** The version of audit/report.json's layout (docs/audit.md). */
    public static final int REPORT_VERSION = 1;

    /** What the user asked for. */
    public static final class Settings {
        public final List<String> include = new ArrayList<>();
        public int captureLimit = 200_000;
        public Integer maxConfirm;
        /**
         * Where teardown patches are made from ({@code -Dodrust.audit.repair=true}), or null for none.
         * Not part of the settings a record is a fact about: the audit's runs are the same with it.
         */
        public io.github.odrust.maven.repair.od.Repairer.Settings repair;
        /** Latent polluters patched at most; the engine's default when null. */
        public Integer maxRepair;

        JsonObject toJson() {
            JsonObject o = new JsonObject();
            o.add("include", Json.WIRE.toJsonTree(include));
            o.addProperty("capture_limit", captureLimit);
            if (maxConfirm != null) {
                o.addProperty("max_confirm", maxConfirm);
            }
            return o;
        }
    }

    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final List<String> tests;
    private final List<String> testClasses;
    private final String buildFingerprint;
    private final Path dir;
    private final Settings settings;
    private final Log log;
    private ProjectRoots roots;
    /** The candidate patches of this run, when repair was asked for. */
    private io.github.odrust.maven.repair.od.LatentFixes fixes;

    /**
     * An audit of {@code tests} (in their original order), of {@code suite}'s classes; {@code
     * testClasses}: every test class of the module (readers of a field count among them);
     * {@code buildFingerprint}: the module's Surefire settings, test JVM, classpath and
     * resources, so that records of another build are not replayed.
     */
    public Auditor(
            Engine engine,
            TestModule module,
            DiscoveredSuite suite,
            List<String> tests,
            List<String> testClasses,
            String buildFingerprint,
            Path out,
            Settings settings,
            Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.tests = tests;
        this.testClasses = testClasses;
        this.buildFingerprint = buildFingerprint;
        this.dir = out.resolve("audit");
        this.settings = settings;
        this.log = log;
    }

    /** Runs (or resumes) the audit; returns report.json's content. */
    public JsonObject run(String reproduceTemplate) throws MojoExecutionException {
        ExperimentLog history = prepare();
        String fingerprint;
        try {
            fingerprint =
                    fingerprint(CodeDigest.of(module), settings, buildFingerprint, engine.version(), roots().jars);
        } catch (IOException e) {
            throw new MojoExecutionException("odrust:audit cannot read the module's classes: " + e.getMessage(), e);
        }
        AuditRequest request = new AuditRequest();
        request.original = tests;
        request.fingerprint = fingerprint;
        request.maxConfirm = settings.maxConfirm;
        request.testClasses = testClasses;
        request.repair = settings.repair != null;
        request.maxRepair = settings.maxRepair;
        roots().directories.forEach(d -> request.classDirs.add(d.getAbsolutePath()));
        fixes = settings.repair == null
                ? null
                : new io.github.odrust.maven.repair.od.LatentFixes(
                        engine, module, dir.resolve("fixes"), settings.repair, fingerprint);
        PlannerLoop<AuditStep> loop = new PlannerLoop<>(
                history,
                request.history,
                r -> r.has("fingerprint")
                        && fingerprint.equals(r.get("fingerprint").getAsString()));
        log.info("odrust audit: " + module.id() + ", " + Words.count(tests.size(), "test") + " in "
                + Words.count(suite.classes.size(), "class") + io.github.odrust.maven.run.Discovery.countNote(suite)
                + "; experiments in " + dir.resolve("experiments.jsonl"));
        log.info("odrust audit plan: every class twice in one JVM (about 2x the suite's test time), a fresh JVM per"
                + " test that fails on its second run, then the original order three times: captured before each"
                + " class, with each class captured right after its initialization, and captured before each test"
                + " of the classes that leave static state changed (about 3x, plus the captures)"
                + (settings.repair == null
                        ? ""
                        : "; then, for each latent polluter patched, a captured run of the original order per"
                                + " candidate patch"));
        loop.sayResumed(log, "audit");
        long start = System.nanoTime();
        AuditStep done = loop.run(new PlannerLoop.Goal<AuditStep>() {
            @Override
            public AuditStep next(int nextId) throws MojoExecutionException {
                request.nextId = nextId;
                AuditStep step = engine.call("audit_next", request, AuditStep.class);
                if (step.wantsFixes()) {
                    request.fixes = candidates(step.wanted);
                    step = engine.call("audit_next", request, AuditStep.class);
                }
                return step;
            }

            @Override
            public boolean done(AuditStep step) {
                return step.isDone();
            }

            @Override
            public JsonObject run(AuditStep step) throws MojoExecutionException {
                return runExperiment(step, fingerprint);
            }

            @Override
            public String name(AuditStep step) {
                return "audit experiment " + step.experiment.id;
            }
        });
        return write(done.outcome, reproduceTemplate, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * What an audit record is a fact about: the module's classes, the capture settings, the build
     * (Surefire settings, test JVM, classpath, resources), the engine, and the content of the
     * project's own jars. A record of anything else is not replayed.
     */
    static String fingerprint(String codeDigest, Settings settings, String build, String engine, List<File> jars)
            throws IOException {
        JsonObject what = settings.toJson();
        what.addProperty("build", build);
        what.addProperty("engine", engine);
        for (File jar : jars) {
            what.addProperty("jar:" + jar.getName(), CodeDigest.sha256(Files.readAllBytes(jar.toPath())));
        }
        return CodeDigest.sha256((codeDigest + "\n" + Json.WIRE.toJson(what)).getBytes(StandardCharsets.UTF_8))
                .substring(0, 16);
    }

    /** The candidate patches for {@code wanted}, each compiled (the engine runs them). */
    private List<AuditRequest.FixCandidates> candidates(List<AuditStep.Wanted> wanted) throws MojoExecutionException {
        if (fixes == null) {
            throw new MojoExecutionException(
                    "the engine asked for candidate patches the audit did not ask for (a bug: please report it)");
        }
        log.info("odrust audit: making teardown patches for " + Words.count(wanted.size(), "latent polluter"));
        List<AuditRequest.FixCandidates> out = new ArrayList<>();
        for (AuditStep.Wanted w : wanted) {
            AuditRequest.FixCandidates c = fixes.candidates(w);
            out.add(c);
            log.info("  " + w.test + " (" + w.field + "): "
                    + (c.candidates.isEmpty()
                            ? "no candidate: " + c.note
                            : Words.count(c.candidates.size(), "candidate")));
        }
        return out;
    }

    /** Writes each verified teardown patch of {@code outcome} as {@code fix-N.patch} and says how to apply it. */
    private void writePatches(JsonObject outcome) throws MojoExecutionException {
        if (fixes == null || !outcome.has("latent_polluters")) {
            return;
        }
        fixes.clearPatches();
        int n = 0;
        for (JsonElement e : outcome.getAsJsonArray("latent_polluters")) {
            JsonObject p = e.getAsJsonObject();
            JsonObject fix = p.has("fix") && p.get("fix").isJsonObject() ? p.getAsJsonObject("fix") : null;
            if (fix == null || !"patched".equals(fix.get("status").getAsString())) {
                continue;
            }
            n++;
            fixes.write(fix.get("candidate").getAsString(), "fix-" + n + ".patch", fix);
        }
    }

    private ProjectRoots roots() {
        if (roots == null) {
            roots = ProjectRoots.of(module);
        }
        return roots;
    }

    private ExperimentLog prepare() throws MojoExecutionException {
        JsonObject wanted = settings.toJson();
        wanted.add("tests", Json.WIRE.toJsonTree(tests));
        try {
            return io.github.odrust.maven.detect.EvidenceDirectory.open(dir, wanted, "audit", log::info);
        } catch (IOException e) {
            throw new MojoExecutionException("odrust:audit cannot prepare " + dir + ": " + e.getMessage(), e);
        }
    }

    private JsonObject runExperiment(AuditStep step, String fingerprint) throws MojoExecutionException {
        AuditStep.Experiment e = step.experiment;
        Path expDir = dir.resolve("exp-" + e.id);
        Path captures = expDir.resolve("captures");
        Path options = expDir.resolve("agent-options.txt");
        try {
            Files.createDirectories(expDir);
            deleteTree(captures);
            if (e.usesAgent()) {
                Files.createDirectories(captures);
                Files.write(options, options(e, captures).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException ex) {
            throw new MojoExecutionException("cannot prepare " + expDir + ": " + ex.getMessage(), ex);
        }
        long start = System.nanoTime();
        OrderRunner runner = new OrderRunner(module, engine, suite, expDir, log).quiet();
        File patched = patchedClasses(e);
        if (patched != null) {
            runner.classpathFirst(patched);
        }
        if (e.usesAgent()) {
            runner.recording(options);
        }
        RunResult result = runner.run(String.join("\n", e.order), "audit experiment " + e.id);
        long ms = (System.nanoTime() - start) / 1_000_000;
        JsonObject record = Json.WIRE.toJsonTree(e).getAsJsonObject();
        record.addProperty("fingerprint", fingerprint);
        record.add("results", result.resultsJson());
        record.addProperty("honoured", Boolean.TRUE.equals(result.honoured));
        record.addProperty("time_ms", ms);
        record.addProperty("jvms", Math.max(1, result.jvms.size()));
        if (e.usesAgent()) {
            record.addProperty("captures_dir", captures.toAbsolutePath().toString());
            record.add("points", points(captures.resolve("points.jsonl")));
        }
        int failed = 0;
        for (RunResult.TestResult r : result.results) {
            if (!"pass".equals(r.outcome) && !"skipped".equals(r.outcome)) {
                failed++;
            }
        }
        log.info(String.format(
                Locale.ROOT,
                "  [audit %d] %s: %s (%.1f s); left: %s",
                e.id,
                step.what,
                failed == 0 ? "all pass" : Words.count(failed, "test run") + " failed",
                ms / 1e3,
                step.left));
        return record;
    }

    /** The agent's points, one JSON object per line; a line that does not parse is skipped. */
    static JsonArray points(Path file) {
        JsonArray out = new JsonArray();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                try {
                    JsonElement el = JsonParser.parseString(line);
                    if (el.isJsonObject()) {
                        out.add(el);
                    }
                } catch (RuntimeException torn) {
                    // the JVM was killed while it wrote this line
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** The compiled classes of the candidate patch a {@code fix} experiment runs with, or null. */
    private File patchedClasses(AuditStep.Experiment e) throws MojoExecutionException {
        if (e.fix == null || !"fix".equals(e.kind)) {
            return null;
        }
        if (fixes == null) {
            throw new MojoExecutionException(
                    "the engine asked for a patched run the audit did not ask for (a bug: please report it)");
        }
        return fixes.classes(e.fix.candidate);
    }

    private String options(AuditStep.Experiment e, Path captures) throws MojoExecutionException {
        AgentOptions.Writer w = new AgentOptions.Writer()
                .comment("odrust:audit experiment " + e.id + " (docs/audit.md)")
                .mode("audit");
        roots().all().forEach(w::root);
        // the patched class is loaded from the candidate's directory: captured as the module's
        File patched = patchedClasses(e);
        if (patched != null) {
            w.root(patched);
        }
        settings.include.forEach(w::include);
        w.captures(captures).captureLimit(settings.captureLimit);
        e.captureTests.forEach(w::captureTests);
        for (AuditStep.InitializeAt i : e.initializeAt) {
            w.initializeAt(i.segment, i.className);
        }
        return w.text();
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path f : (Iterable<Path>) all.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        }
    }

    private JsonObject write(JsonObject outcome, String reproduceTemplate, long ms) throws MojoExecutionException {
        writePatches(outcome);
        JsonObject report = new JsonObject();
        report.addProperty("schema_version", REPORT_VERSION);
        report.addProperty("module", module.id());
        report.addProperty("engine", engine.version());
        report.add("settings", settings.toJson());
        report.addProperty("tests", tests.size());
        report.addProperty("time_ms", ms);
        report.add("outcome", outcome);
        JsonObject rendered = engine.call(
                "audit_report", new AuditReportRequest(module.id(), tests.size(), outcome, reproduceTemplate));
        try {
            ReportWriter.atomicWrite(dir.resolve("report.json"), Json.WIRE.toJson(report) + "\n");
            ReportWriter.atomicWrite(
                    dir.resolve("report.html"), rendered.get("html").getAsString());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the audit report in " + dir + ": " + e.getMessage(), e);
        }
        for (String line : rendered.get("text").getAsString().split("\n")) {
            if (!line.isEmpty()) {
                log.info(line);
            }
        }
        log.info("report: " + dir.resolve("report.json") + ", " + dir.resolve("report.html"));
        return report;
    }
}
