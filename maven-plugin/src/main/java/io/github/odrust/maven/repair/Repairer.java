package io.github.odrust.maven.repair;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.RepairStep;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.TestModule;
import io.github.odrust.maven.Words;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.run.Discovery;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * One {@code odrust:repair} run of a module: for each victim and brittle of report.json, asks the
 * engine ({@code repair_next}) what to run next, builds, compiles and runs each candidate patch,
 * records every experiment in {@code repair/experiments.jsonl} as it ends, and writes the verified
 * patches and {@code repair/repair.json} (docs/repair.md). Nothing in the user's tree changes
 * unless {@code apply} is set, and then only files still as the patch was made against.
 */
public final class Repairer {
    /** What the mojo passes in. */
    public static final class Settings {
        public String test;
        public boolean apply;
        public Integer budget;
        /** The directory patch paths are relative to (where {@code git apply} runs): where mvn ran. */
        public Path root;
        /** The module's directory: paths in repair.json are relative to it. */
        public Path basedir;
        public List<java.io.File> testSourceRoots = new ArrayList<>();
        public String encoding;
        public String release;
    }

    private final Engine engine;
    private final TestModule module;
    private final JsonObject suite;
    private final Path out;
    private final Path dir;
    private final Settings settings;
    private final Log log;
    private final JavaSources sources;
    private final CandidateCompiler compiler;
    /** Candidates compiled in this run, and those that did not compile (with the error), by key. */
    private final Set<String> compiled = new java.util.HashSet<>();
    private final Map<String, String> compileErrors = new HashMap<>();
    /** The source files patches may edit, by the test they are edited for: the flaky tests' and polluters'. */
    private final Map<String, Editable> editables = new HashMap<>();
    /** A digest of the compiled code and the classpath: a record made against other code is ignored. */
    private String codeDigest;

    public Repairer(Engine engine, TestModule module, JsonObject suite, Path out, Settings settings, Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.out = out;
        this.dir = out.resolve("repair");
        this.settings = settings;
        this.log = log;
        java.nio.charset.Charset cs = settings.encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(settings.encoding);
        this.sources = new JavaSources(settings.testSourceRoots, cs);
        this.compiler = new CandidateCompiler(module.classpath, cs, settings.release);
    }

    /**
     * Checks what the run needs from the last detect: report.json present, of this schema and
     * version, and {@code test} (when given) one of its victims or brittles.
     */
    public static void checkInput(Path out, String engineVersion, String test) throws MojoFailureException {
        DetectInput.load(out, engineVersion).targets(test);
    }

    /** Repairs every target; returns repair.json's content. */
    public RepairFile run() throws MojoExecutionException, MojoFailureException {
        DetectInput input = DetectInput.load(out, engine.version());
        List<Summary.FlakyTest> targets = input.targets(settings.test);
        if (!input.complete()) {
            log.warn(input.reportFile + " comes from a detect run that did not finish: repairing what it had found.");
        }
        if (input.baseline.size() == 0) {
            log.warn("the detection history has no baseline run, so the original-order check can only ask that the repaired"
                    + " test passes and that no other test fails.");
        }
        RepairFile file = RepairFile.continuing(dir.resolve("repair.json"), module.id(), engine.version());
        if (targets.isEmpty()) {
            log.info("odrust repair: " + input.reportFile + " has no victim or brittle: nothing to repair.");
            write(file, true);
            return file;
        }
        ExperimentLog history = history();
        log.info("odrust repair: " + module.id() + ", " + Words.count(targets.size(), "order-dependent test")
                + (settings.apply ? ", applying verified patches" : "") + "; experiments in " + dir.resolve("experiments.jsonl"));
        List<String> original = Discovery.originalOrder(suite);
        for (Summary.FlakyTest target : targets) {
            file.put(repair(target, input, original, history));
            write(file, false);
        }
        write(file, true);
        return file;
    }

    private RepairFile.Entry repair(Summary.FlakyTest target, DetectInput input, List<String> original, ExperimentLog history)
            throws MojoExecutionException {
        String className = target.test.substring(0, target.test.indexOf('#'));
        RepairFile.Entry entry = new RepairFile.Entry(target.test, target.kind);
        Editable own = editable(target.test);
        if (own.error != null) {
            entry.status = "unsupported";
            entry.reason = own.error;
            return entry;
        }
        Path file = own.file;
        entry.file = relative(settings.basedir, file);
        boolean victim = "victim".equals(target.kind);
        Map<String, FixCode> fixes = new LinkedHashMap<>();
        for (String t : fixTests(target)) {
            fixes.put(t, FixCode.load(sources, t, className));
        }
        JsonObject request = new JsonObject();
        request.add("target", targetJson(target, input, original, fixes, fingerprint(file, fixes)));
        if (settings.budget != null) {
            request.addProperty("budget", settings.budget);
        }
        String fingerprint = request.getAsJsonObject("target").get("fingerprint").getAsString();
        while (true) {
            request.add("history", history.history());
            RepairStep step = engine.call("repair_next", request, RepairStep.class);
            if (step.isDone()) {
                return finish(entry, step.outcome, fixes, victim);
            }
            JsonObject record = runExperiment(step.experiment, fixes, fingerprint, victim, history);
            try {
                history.append(record);
            } catch (IOException e) {
                throw new MojoExecutionException("could not record repair experiment " + step.experiment.id + " in "
                        + dir.resolve("experiments.jsonl") + ": " + e.getMessage(), e);
            }
        }
    }

    /** A source file a patch may edit: a flaky test's, or a polluter's (for a teardown patch). */
    private static final class Editable {
        Path file;
        String text;
        Patcher patcher;
        /** Why it cannot be edited, or null. */
        String error;
    }

    /** The file declaring {@code test}'s class, read and checked once per test (a patch names its method). */
    private Editable editable(String test) {
        return editables.computeIfAbsent(test, t -> {
            Editable ed = new Editable();
            try {
                ed.file = sources.find(t.substring(0, t.indexOf('#')));
                ed.text = sources.read(ed.file);
                ed.patcher = new Patcher(test, ed.file, ed.text);
                ed.patcher.check();
            } catch (JavaSources.SourceException e) {
                ed.error = e.getMessage();
            }
            return ed;
        });
    }

    /** The test whose class a placement edits. */
    private static String edited(String placement, String test, String polluter) {
        return "polluter-teardown".equals(placement) && polluter != null ? polluter : test;
    }

    /** The cleaners (victim) or single state-setters (brittle) a patch can come from. */
    private static Set<String> fixTests(Summary.FlakyTest target) {
        Set<String> tests = new LinkedHashSet<>();
        if ("victim".equals(target.kind)) {
            target.cleaners.values().forEach(tests::addAll);
        } else {
            target.stateSetters.stream().filter(g -> g.size() == 1).forEach(g -> tests.add(g.get(0)));
        }
        return tests;
    }

    private JsonObject targetJson(Summary.FlakyTest target, DetectInput input, List<String> original, Map<String, FixCode> fixes,
            String fingerprint) {
        JsonObject t = new JsonObject();
        t.addProperty("test", target.test);
        t.addProperty("kind", target.kind);
        t.add("polluters", Engine.GSON.toJsonTree(target.polluters));
        t.add("cleaners", Engine.GSON.toJsonTree(target.cleaners));
        t.add("state_setters", Engine.GSON.toJsonTree(target.stateSetters));
        t.addProperty("explanation_complete", target.minimizeComplete);
        String failing = input.failingOrderFile(target);
        t.add("failing_order", Engine.GSON.toJsonTree(failing == null ? List.of()
                : DetectInput.readOrder(settings.basedir.resolve(failing))));
        t.add("original_order", Engine.GSON.toJsonTree(original));
        t.add("baseline", input.baseline);
        JsonArray sourcesJson = new JsonArray();
        for (FixCode fix : fixes.values()) {
            JsonObject s = new JsonObject();
            s.addProperty("test", fix.test);
            s.addProperty("statements", fix.statements.size());
            JsonArray placements = new JsonArray();
            placements.add("setup");
            if ("victim".equals(target.kind)) {
                placements.add("polluter-teardown");
            }
            placements.add("test");
            s.add("placements", placements);
            s.addProperty("unusable", fix.unusable);
            sourcesJson.add(s);
        }
        t.add("sources", sourcesJson);
        t.addProperty("fingerprint", fingerprint);
        return t;
    }

    /** Builds, compiles and runs one experiment; returns its record. */
    private JsonObject runExperiment(RepairStep.Experiment e, Map<String, FixCode> fixes, String fingerprint, boolean victim,
            ExperimentLog history) throws MojoExecutionException {
        JsonObject record = Engine.GSON.toJsonTree(e).getAsJsonObject();
        record.addProperty("fingerprint", fingerprint);
        Path classes = null;
        String key;
        if (e.source == null) {
            key = sha256(codeDigest() + "\nunpatched").substring(0, 16);
        } else {
            FixCode fix = fixes.get(e.source);
            String editedTest = edited(e.placement, e.test, e.polluter);
            Editable ed = editable(editedTest);
            if (ed.error != null) {
                return notCompiled(record, e, "cannot edit " + editedTest + "'s class: " + ed.error);
            }
            Patcher.Result candidate;
            String comment = comment(e.test, e.polluter, fix.test, victim);
            try {
                candidate = ed.patcher.patch(fix, e.statements, placement(e.placement), victim, comment);
            } catch (JavaSources.SourceException ex) {
                return notCompiled(record, e, ex.getMessage());
            }
            // The same code (whatever the comment names) in the same order is the same experiment.
            String code = candidate.text;
            for (String line : comment.split("\n")) {
                code = code.replace("// " + line, "//");
            }
            key = sha256(codeDigest() + "\n" + code).substring(0, 16);
            record.addProperty("candidate", key);
            if (compileErrors.containsKey(key)) {
                return notCompiled(record, e, compileErrors.get(key));
            }
            JsonObject earlier = earlier(history, key, e.order);
            if (earlier != null) {
                return reused(record, e, earlier);
            }
            Path candDir = dir.resolve("candidates").resolve(key);
            classes = candDir.resolve("classes");
            if (!compiled.contains(key)) {
                try {
                    String error = compiler.compile(candidate.text, relativeSource(editedTest), candDir);
                    if (error != null) {
                        compileErrors.put(key, error);
                        return notCompiled(record, e, error);
                    }
                } catch (IOException | CandidateCompiler.NoCompilerException ex) {
                    throw new MojoExecutionException("odrust:repair could not compile a candidate patch: " + ex.getMessage(), ex);
                }
                compiled.add(key);
            }
        }
        record.addProperty("candidate", key);
        JsonObject earlier = earlier(history, key, e.order);
        if (earlier != null) {
            return reused(record, e, earlier);
        }
        Path expDir = dir.resolve("exp-" + e.id);
        OrderRunner runner = new OrderRunner(module, engine, suite, expDir, log).quiet();
        if (classes != null) {
            runner.classpathFirst(classes.toFile());
        }
        long start = System.nanoTime();
        RunResult result = runner.run(String.join("\n", e.order), "repair experiment " + e.id);
        JsonArray results = new JsonArray();
        String mine = "";
        for (RunResult.TestResult r : result.results) {
            JsonObject o = new JsonObject();
            o.addProperty("test", r.test);
            o.addProperty("outcome", r.outcome);
            o.addProperty("message", r.message);
            if (r.timeMs != null) {
                o.addProperty("time_ms", r.timeMs);
            }
            results.add(o);
            if (r.test.equals(e.test) || r.test.startsWith(e.test + "[")) {
                mine = r.outcome;
            }
        }
        record.add("results", results);
        progress(e, shortId(e.test) + " " + mine.toUpperCase(Locale.ROOT)
                + String.format(Locale.ROOT, " (%.1f s)", (System.nanoTime() - start) / 1e9));
        return record;
    }

    /** {@code SimpleClass#method} of a test id. */
    static String shortId(String test) {
        int hash = test.indexOf('#');
        String cls = hash < 0 ? test : test.substring(0, hash);
        return cls.substring(cls.lastIndexOf('.') + 1) + (hash < 0 ? "" : test.substring(hash));
    }

    private JsonObject notCompiled(JsonObject record, RepairStep.Experiment e, String error) {
        record.addProperty("compile_error", error);
        record.add("results", new JsonArray());
        progress(e, "does not compile: " + error);
        return record;
    }

    /** An earlier record (of any test) that ran candidate {@code key} in {@code order}, or null. */
    private static JsonObject earlier(ExperimentLog history, String key, List<String> order) {
        JsonArray wanted = Engine.GSON.toJsonTree(order).getAsJsonArray();
        for (com.google.gson.JsonElement el : history.history()) {
            JsonObject r = el.getAsJsonObject();
            if (r.has("candidate") && key.equals(r.get("candidate").getAsString()) && wanted.equals(r.get("order"))
                    && (!r.has("compile_error") || r.get("compile_error").isJsonNull()) && !r.has("reused_from")) {
                return r;
            }
        }
        return null;
    }

    private JsonObject reused(JsonObject record, RepairStep.Experiment e, JsonObject earlier) {
        record.add("results", earlier.get("results").deepCopy());
        record.addProperty("reused_from", earlier.get("id").getAsInt());
        progress(e, "same code and order as experiment " + earlier.get("id").getAsInt() + ": its results");
        return record;
    }

    private void progress(RepairStep.Experiment e, String what) {
        String candidate = e.source == null ? "no patch" : e.placement + ", " + e.statements.size() + " statement"
                + (e.statements.size() == 1 ? "" : "s");
        log.info(String.format(Locale.ROOT, "repair exp %4d  %-22s %-24s %s", e.id, e.check, candidate, what));
    }

    private RepairFile.Entry finish(RepairFile.Entry entry, RepairStep.Outcome o, Map<String, FixCode> fixes, boolean victim)
            throws MojoExecutionException {
        entry.status = o.status;
        entry.reason = o.reason;
        entry.experiments = o.experiments;
        entry.compileErrors = o.compileErrors;
        entry.verification = o.verification;
        entry.tried = o.tried;
        entry.source = o.source;
        entry.statementsTotal = o.statementsTotal;
        if (!"patched".equals(o.status)) {
            return entry;
        }
        FixCode fix = fixes.get(o.source.test);
        for (int i : o.statements) {
            entry.statements.add(fix.text(i));
        }
        Editable ed = editable(edited(o.placement, o.test, o.source.polluter));
        Path file = ed.file;
        String text = ed.text;
        entry.file = relative(settings.basedir, file);
        Patcher.Result patched;
        try {
            patched = ed.patcher.patch(fix, o.statements, placement(o.placement), victim, comment(o.test, o.source.polluter, fix.test, victim));
        } catch (JavaSources.SourceException e) {
            throw new MojoExecutionException("odrust:repair could not rebuild the verified patch of " + o.test + ": " + e.getMessage(), e);
        }
        entry.placement = new RepairFile.Where(o.placement, patched.method, patched.helper);
        String rel = relative(settings.root, file);
        Path patch = dir.resolve(RepairFile.patchName(o.test));
        try {
            Files.createDirectories(dir);
            Files.write(patch, UnifiedPatch.of(rel, text, patched.text).getBytes(sources.encoding()));
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + patch + ": " + e.getMessage(), e);
        }
        entry.patch = relative(settings.basedir, patch);
        entry.originalSha256 = sha256(text);
        if (settings.apply) {
            apply(entry, file, patched.text);
        }
        return entry;
    }

    /** Writes the patched text over the file, only when the file is still what the patch was made against. */
    private void apply(RepairFile.Entry entry, Path file, String patched) throws MojoExecutionException {
        try {
            String now = sources.read(file);
            if (!sha256(now).equals(entry.originalSha256)) {
                entry.applied = false;
                entry.notApplied = file + " changed since the patch was made (another patch of this run went into it, or it"
                        + " was edited): apply " + entry.patch + " by hand with `git apply` after a look";
                return;
            }
            Path tmp = file.resolveSibling(file.getFileName() + ".odrust-tmp");
            Files.write(tmp, patched.getBytes(sources.encoding()));
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            entry.applied = true;
        } catch (IOException | JavaSources.SourceException e) {
            throw new MojoExecutionException("could not apply the patch of " + entry.test + " to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The comment above the inserted code: two lines, naming the polluter (victim), the flaky test and the source. */
    private static String comment(String test, String polluter, String source, boolean victim) {
        return victim
                ? "odrust: undoes what " + polluter + " leaves behind, which fails\n" + test + " (from the cleaner " + source + ")"
                : "odrust: sets up what " + test + " needs and does not set\nitself (from the state-setter " + source + ")";
    }

    private static Patcher.Placement placement(String p) {
        return "test".equals(p) ? Patcher.Placement.TEST
                : "polluter-teardown".equals(p) ? Patcher.Placement.TEARDOWN : Patcher.Placement.SETUP;
    }

    private String relativeSource(String test) {
        String className = test.substring(0, test.indexOf('#'));
        String top = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        return top.replace('.', '/') + ".java";
    }

    /**
     * What the target's records are facts about: this odrust, the compiled code, the source files
     * involved and each candidate's numbered statements.
     */
    private String fingerprint(Path file, Map<String, FixCode> fixes) throws MojoExecutionException {
        Set<Path> files = new java.util.TreeSet<>();
        files.add(file);
        fixes.values().stream().filter(f -> f.file != null).forEach(f -> files.add(f.file));
        StringBuilder all = new StringBuilder(engine.version()).append(" patcher ").append(Patcher.VERSION).append('\n')
                .append(codeDigest()).append('\n');
        try {
            for (Path f : files) {
                all.append(f).append('\n').append(sha256(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))).append('\n');
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read " + e.getMessage(), e);
        }
        // The statements as numbered: a record's indices mean these statements and no others.
        for (FixCode f : fixes.values()) {
            all.append(f.test).append('\n');
            for (int i = 0; i < f.statements.size(); i++) {
                all.append(f.text(i)).append('\n');
            }
        }
        return sha256(all.toString()).substring(0, 16);
    }

    /**
     * The module's compiled main and test classes (the contents of their .class files; resources
     * are left out, since builds often stamp them) and the rest of its test classpath (paths and
     * sizes): a repair experiment is a fact about this code only.
     */
    private String codeDigest() throws MojoExecutionException {
        if (codeDigest != null) {
            return codeDigest;
        }
        StringBuilder all = new StringBuilder();
        try {
            for (java.io.File f : module.classpath) {
                Path p = f.toPath();
                if (Files.isDirectory(p)) {
                    List<Path> files;
                    try (java.util.stream.Stream<Path> walk = Files.walk(p)) {
                        files = walk.filter(c -> Files.isRegularFile(c) && c.toString().endsWith(".class")).sorted().collect(java.util.stream.Collectors.toList());
                    }
                    for (Path c : files) {
                        all.append(p.relativize(c)).append(' ')
                                .append(sha256(new String(Files.readAllBytes(c), StandardCharsets.ISO_8859_1))).append('\n');
                    }
                } else {
                    all.append(p).append(' ').append(Files.isRegularFile(p) ? Files.size(p) : -1).append('\n');
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read the module's classes to fingerprint them: " + e.getMessage(), e);
        }
        codeDigest = sha256(all.toString());
        return codeDigest;
    }

    private ExperimentLog history() throws MojoExecutionException {
        Path file = dir.resolve("experiments.jsonl");
        try {
            return Files.isRegularFile(file) ? ExperimentLog.load(file) : ExperimentLog.create(file);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot open the repair history " + file + ": " + e.getMessage(), e);
        }
    }

    private void write(RepairFile file, boolean complete) throws MojoExecutionException {
        file.complete = complete;
        try {
            file.write(dir.resolve("repair.json"));
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + dir.resolve("repair.json") + ": " + e.getMessage(), e);
        }
    }

    static String relative(Path base, Path file) {
        Path b = base.toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return (f.startsWith(b) ? b.relativize(f) : f).toString().replace('\\', '/');
    }

    static String sha256(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder();
            for (byte x : d) {
                b.append(String.format("%02x", x));
            }
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
