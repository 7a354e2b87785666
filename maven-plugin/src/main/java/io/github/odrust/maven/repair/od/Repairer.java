package io.github.odrust.maven.repair.od;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.RepairRequest;
import io.github.odrust.engine.protocol.RepairStep;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.core.Eta;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.DetectInput;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.PlannerLoop;
import io.github.odrust.maven.repair.CandidateCompiler;
import io.github.odrust.maven.repair.JavaSources;
import io.github.odrust.maven.repair.PatchCheck;
import io.github.odrust.maven.repair.RepairFile;
import io.github.odrust.maven.repair.UnifiedPatch;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
        /** Diagnose each victim first and try the module's reset methods for its polluted state. */
        public boolean diagnose = true;
        /**
         * {@code classloader}: minimize candidates in shared JVMs once the last detect passed the
         * isolation check (docs/isolation.md); {@code jvm}: every experiment in a fresh JVM.
         */
        public String isolation = "jvm";
        /** What the diagnosis captures and spends (odrust.diagnose.*). */
        public io.github.odrust.maven.diagnose.Diagnoser.Settings diagnoseSettings =
                new io.github.odrust.maven.diagnose.Diagnoser.Settings();
    }

    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final Path out;
    private final Path dir;
    private final Settings settings;
    private final Log log;
    private final JavaSources sources;
    private final io.github.odrust.maven.diagnose.Diagnoser diagnoser;
    private final Candidates candidates;
    /** The time left of this run, cause by cause. */
    private Eta eta;

    /**
     * Experiments a cause's repair is predicted to take before one ended: a patched cause took 15
     * to 24 JVM runs on the benchmark modules (docs/repair-real-projects.md).
     */
    static final int EXPERIMENTS_PER_CAUSE = 20;

    /** The engine's budget per cause when none is set (Rust: {@code repair::DEFAULT_REPAIR_BUDGET}). */
    static final int DEFAULT_BUDGET = 100;
    /** The confirmed diagnosis of each cause, for the parts of a split one. */
    private final Map<Integer, io.github.odrust.engine.protocol.DiagnoseRequest.Shared> diagnoses =
            new java.util.HashMap<>();

    public Repairer(Engine engine, TestModule module, DiscoveredSuite suite, Path out, Settings settings, Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.out = out;
        this.dir = out.resolve("repair");
        this.settings = settings;
        this.log = log;
        java.nio.charset.Charset cs = settings.encoding == null
                ? StandardCharsets.UTF_8
                : java.nio.charset.Charset.forName(settings.encoding);
        this.sources = new JavaSources(settings.testSourceRoots, cs);
        this.candidates = new Candidates(
                engine,
                module,
                suite,
                dir,
                sources,
                new CandidateCompiler(module.classpath, cs, settings.release),
                log);
        this.diagnoser = new io.github.odrust.maven.diagnose.Diagnoser(
                engine, module, suite, out, settings.diagnoseSettings, log);
    }

    /**
     * Checks what the run needs from the last detect: report.json present, of this schema and
     * version, and {@code test} (when given) one of its victims or brittles.
     */
    public static void checkInput(Path out, String engineVersion, String test) throws MojoFailureException {
        DetectInput.load(out, engineVersion).targets(test);
    }

    /** Repairs every cause of the targets; returns repair.json's content. */
    public RepairFile run() throws MojoExecutionException, MojoFailureException {
        try (RepairJvms jvms = RepairJvms.of(settings.isolation, module, out, dir, log)) {
            candidates.shared(jvms);
            return repairAll();
        } catch (java.io.IOException e) {
            throw new MojoExecutionException("odrust:repair could not end its shared JVM: " + e.getMessage(), e);
        }
    }

    private RepairFile repairAll() throws MojoExecutionException, MojoFailureException {
        DetectInput input = DetectInput.load(out, engine.version());
        List<Summary.FlakyTest> targets = input.targets(settings.test);
        if (!input.complete()) {
            log.warn(input.reportFile + " comes from a detect run that did not finish: repairing what it had found.");
        }
        if (input.baseline.size() == 0) {
            log.warn(
                    "the detection history has no baseline run, so the original-order check can only ask that the repaired"
                            + " test passes and that no other test fails.");
        }
        RepairFile file = RepairFile.continuing(dir.resolve("repair.json"), module.id(), engine.version());
        if (file.setAside != null) {
            log.warn(file.setAside);
        }
        if (targets.isEmpty()) {
            log.info("odrust repair: " + input.reportFile + " has no victim or brittle: nothing to repair.");
            write(file, true);
            return file;
        }
        ExperimentLog history = history();
        List<Group> groups = Group.of(input.report, targets);
        eta = new Eta(
                "repair",
                groups.size(),
                EXPERIMENTS_PER_CAUSE,
                settings.budget != null ? settings.budget : DEFAULT_BUDGET,
                Eta.perExperiment(input.report.summary.time));
        log.info("odrust repair: " + module.id() + ", " + Words.count(targets.size(), "order-dependent test") + " in "
                + Words.count(groups.size(), "cause") + " (one repair each: a patch is verified for all its tests)"
                + (settings.apply ? ", applying verified patches" : "") + "; " + eta.prediction()
                + "; experiments in " + dir.resolve("experiments.jsonl"));
        List<String> original = Discovery.originalOrder(suite);
        for (Group group : groups) {
            for (RepairFile.Entry entry : repairGroup(group, input, original, history)) {
                file.put(entry);
                write(file, false);
            }
        }
        log.info("odrust repair: " + eta.outcome());
        file.phases = List.of(eta.phase("repair", history.loaded()));
        if (settings.apply) {
            applyAll(file.ran);
        }
        write(file, true);
        CauseFixes.record(engine, input, file.ran, settings.basedir, settings.root, out, sources.encoding());
        return file;
    }

    /**
     * One cause's repair: one patch for all its tests; when no candidate fixes them all, the
     * cause is split (by class, then test by test) and each part repaired, saying why.
     */
    private List<RepairFile.Entry> repairGroup(
            Group group, DetectInput input, List<String> original, ExperimentLog history)
            throws MojoExecutionException {
        RepairFile.Entry entry;
        eta.begin();
        eta.about(group.about());
        try {
            entry = repair(group, input, original, history);
        } finally {
            eta.end();
        }
        if (group.members.size() == 1 || !"rejected".equals(entry.status)) {
            return List.of(entry);
        }
        List<Group> parts = group.split();
        eta.more(parts.size());
        boolean ranNothing = !group.recorded;
        String why = "cause " + group.cause + " split in " + parts.size() + " parts: "
                + (ranNothing ? "no candidate could be tried for its " : "no one patch fixed its ")
                + group.members.size() + " tests together (" + entry.reason
                + (entry.tried.isEmpty() || ranNothing
                        ? ""
                        : "; the last: " + entry.tried.get(entry.tried.size() - 1).why)
                + ")";
        log.warn(why);
        List<WholeRuns.Run> runs = new ArrayList<>(group.inherited);
        runs.addAll(group.ran);
        List<RepairFile.Entry> all = new ArrayList<>();
        for (Group part : parts) {
            part.split = why;
            part.inherited = runs;
            all.addAll(repairGroup(part, input, original, history));
        }
        return all;
    }

    /**
     * A test JVM of the repair under way ran in {@code ms}, and the engine planned {@code next}:
     * {@code say} gets the time left when it is due, and nothing when the repair is done (its end,
     * or its parts', is said next); while a minimal patch's checks go on, the next one's
     * {@code checks_left} is what the repair has left.
     */
    static void ran(Eta eta, long ms, RepairStep next, java.util.function.Consumer<String> say) {
        if (next.isDone()) {
            eta.ran(ms);
        } else {
            eta.knownLeft(next.checksLeft != null ? next.checksLeft : -1);
            eta.ran(ms, say);
        }
    }

    /** Whether a repair record ran a test JVM: not one that took an earlier one's results or did not compile. */
    static boolean ranJvm(com.google.gson.JsonObject record) {
        return !record.has("reused_from")
                && (!record.has("compile_error") || record.get("compile_error").isJsonNull());
    }

    private RepairFile.Entry repair(Group group, DetectInput input, List<String> original, ExperimentLog history)
            throws MojoExecutionException {
        Summary.FlakyTest target = group.members.get(0);
        String className = target.test.substring(0, target.test.indexOf('#'));
        RepairFile.Entry entry = new RepairFile.Entry(target.test, target.kind);
        group.describe(entry);
        Candidates.Editable own = candidates.editable(target.test);
        if (own.error != null) {
            entry.status = "unsupported";
            entry.reason = own.error;
            return entry;
        }
        Path file = own.file;
        entry.file = relative(settings.basedir, file);
        boolean victim = "victim".equals(target.kind);
        Map<String, FixCode> fixes = new LinkedHashMap<>();
        for (String t : group.fixTests()) {
            fixes.put(t, FixCode.load(sources, t, className));
        }
        ResetSources resets = null;
        if (victim && settings.diagnose) {
            // One diagnosis per cause: its first test's; a part of a split cause first tries the
            // diagnosis made for the whole.
            io.github.odrust.engine.protocol.DiagnoseRequest.Shared whole = diagnoses.get(group.cause);
            if (whole != null && whole.test.equals(target.test)) {
                whole = null; // its own diagnosis: replayed as it is
            }
            resets = ResetSources.find(engine, module, diagnoser, target, input, className, whole);
            fixes.putAll(resets.fixes);
            io.github.odrust.engine.protocol.DiagnoseRequest.Shared made =
                    io.github.odrust.engine.protocol.DiagnoseRequest.Shared.of(resets.diagnosis);
            if (group.cause > 0 && made != null) {
                diagnoses.putIfAbsent(group.cause, made);
            }
            entry.pollutedState = RepairFile.pollutedState(resets.diagnosis);
            entry.resetCandidates = resets.statements;
        }
        RepairRequest request = new RepairRequest();
        request.target = target(group, input, original, fixes, fingerprint(file, fixes));
        request.target.ruledOut = WholeRuns.ruledOut(group.inherited, group.tests(), fixes);
        request.budget = settings.budget;
        String fingerprint = request.target.fingerprint;
        String label = group.label();
        candidates.repairing(label, entry.members);
        // Only this target's records cross to the engine (it ignores the others'); ids stay positions.
        PlannerLoop<RepairStep> loop = new PlannerLoop<>(
                history, request.history, r -> target.test.equals(r.get("test").getAsString()));
        loop.sayResumed(log, "repair of " + label);
        // The estimate counts test JVMs, as the budget does: not a run reused or a candidate
        // that did not compile. An experiment's time left is said once the engine planned the
        // next step, which tells what this repair has left: nothing when it is done, the checks
        // of a minimal patch while they pass (the next check says how many), else the model's.
        long[] unsaid = {-1};
        loop.after((step, record, ms) -> unsaid[0] = ranJvm(record) ? ms : -1);
        RepairStep last = loop.run(new PlannerLoop.Goal<RepairStep>() {
            @Override
            public RepairStep next(int nextId) throws MojoExecutionException {
                request.nextId = nextId;
                RepairStep next = engine.call("repair_next", request, RepairStep.class);
                if (unsaid[0] >= 0) {
                    ran(eta, unsaid[0], next, left -> log.info("odrust repair: " + left));
                    unsaid[0] = -1;
                }
                return next;
            }

            @Override
            public boolean done(RepairStep step) {
                return step.isDone();
            }

            @Override
            public JsonObject run(RepairStep step) throws MojoExecutionException {
                return candidates.run(step.experiment, fixes, fingerprint, victim, history);
            }

            @Override
            public String name(RepairStep step) {
                return "repair experiment " + step.experiment.id + " in " + dir.resolve("experiments.jsonl");
            }
        });
        group.ran = WholeRuns.of(history.history(), target.test, fingerprint, fixes);
        group.recorded = request.history.stream()
                .anyMatch(r -> r.has("fingerprint")
                        && fingerprint.equals(r.get("fingerprint").getAsString()));
        RepairFile.Entry done = finish(entry, last.outcome, fixes, victim, group);
        String note = resets == null ? null : resets.noPatchNote();
        if (!"patched".equals(done.status) && note != null) {
            done.reason = (done.reason == null ? "" : done.reason + "; ") + note;
        }
        return done;
    }

    private RepairRequest.Target target(
            Group group, DetectInput input, List<String> original, Map<String, FixCode> fixes, String fingerprint)
            throws MojoExecutionException {
        Summary.FlakyTest target = group.members.get(0);
        RepairRequest.Target t = new RepairRequest.Target();
        t.test = target.test;
        t.kind = target.kind;
        t.polluters = target.polluters;
        t.cleaners = group.cleaners();
        t.stateSetters = target.stateSetters;
        t.explanationComplete = group.members.stream().allMatch(m -> m.minimizeComplete);
        try {
            t.failingOrder = input.failingOrder(target, settings.basedir);
            for (Summary.FlakyTest m : group.members.subList(1, group.members.size())) {
                RepairRequest.CauseMember member = new RepairRequest.CauseMember();
                member.test = m.test;
                member.failingOrder = input.failingOrder(m, settings.basedir);
                t.also.add(member);
            }
        } catch (MojoFailureException e) {
            throw new MojoExecutionException(e.getMessage(), e);
        }
        t.originalOrder = original;
        t.baseline = input.baseline;
        for (FixCode fix : fixes.values()) {
            RepairRequest.FixSource s = new RepairRequest.FixSource();
            s.test = fix.test;
            s.statements = fix.statements.size();
            if (fix.placements != null) {
                s.placements.addAll(fix.placements);
            } else {
                s.placements.add("setup");
                if ("victim".equals(target.kind)) {
                    s.placements.add("polluter-teardown");
                }
                s.placements.add("test");
            }
            s.unusable = fix.unusable;
            s.origin = ResetSources.isReset(fix.test) ? "reset-method" : "test";
            t.sources.add(s);
        }
        t.fingerprint = fingerprint;
        return t;
    }

    private RepairFile.Entry finish(
            RepairFile.Entry entry, RepairStep.Outcome o, Map<String, FixCode> fixes, boolean victim, Group group)
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
        Candidates.Editable ed = candidates.editable(Candidates.edited(o.placement, o.test, o.source.polluter));
        Path file = ed.file;
        String text = ed.text;
        entry.file = relative(settings.basedir, file);
        Patcher.Result patched;
        try {
            // The very call Candidates made the verified candidate with: the same text.
            patched = candidates.patch(
                    candidates.patcher(ed, o.source.polluter, fix.test),
                    fix,
                    o.statements,
                    o.placement,
                    victim,
                    Candidates.comment(group.label(), o.source.polluter, fix.test, victim));
        } catch (JavaSources.SourceException e) {
            throw new MojoExecutionException(
                    "odrust:repair could not rebuild the verified patch of " + group.label() + ": " + e.getMessage(),
                    e);
        }
        entry.placement = new RepairFile.Where(o.placement, patched.method, patched.helper);
        String rel = relative(settings.root, file);
        Path patch = dir.resolve(group.patchName());
        try {
            Files.createDirectories(dir);
            Files.write(patch, UnifiedPatch.of(rel, text, patched.text).getBytes(sources.encoding()));
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + patch + ": " + e.getMessage(), e);
        }
        entry.patch = relative(settings.basedir, patch);
        entry.apply = PatchCheck.applyCommand(settings.root, relative(settings.root, patch));
        entry.originalSha256 = sha256(text);
        // Part of verification: the patch as written applies to the files as they are, from
        // where Maven ran (in a scratch copy).
        entry.applies = PatchCheck.check(settings.root, patch);
        if (!entry.applies.ok()) {
            entry.status = "rejected";
            entry.reason = "the verified code was written as a patch that does not apply as written ("
                    + entry.applies.describe() + "); this is a bug in odrust: please report it with " + patch;
            entry.apply = null;
            return entry;
        }
        entry.patchedText = patched.text;
        entry.sourceFile = file;
        return entry;
    }

    /**
     * Writes each verified patch into the sources, each file once: a file two causes' patches
     * change takes the first (every patch was made against the file as it was before the run).
     */
    private void applyAll(List<RepairFile.Entry> entries) throws MojoExecutionException {
        Map<Path, RepairFile.Entry> written = new LinkedHashMap<>();
        for (RepairFile.Entry entry : entries) {
            if (!"patched".equals(entry.status) || entry.sourceFile == null) {
                continue;
            }
            RepairFile.Entry first = written.get(entry.sourceFile);
            if (first != null) {
                entry.applied = false;
                entry.notApplied = entry.sourceFile + " also takes the patch of " + first.test + " (" + first.patch
                        + "), applied first: apply " + entry.patch + " by hand with `git apply` after a look";
                continue;
            }
            apply(entry, entry.sourceFile, entry.patchedText);
            if (entry.applied) {
                written.put(entry.sourceFile, entry);
            }
        }
    }

    /** Writes the patched text over the file, only when the file is still what the patch was made against. */
    private void apply(RepairFile.Entry entry, Path file, String patched) throws MojoExecutionException {
        try {
            String now = sources.read(file);
            if (!sha256(now).equals(entry.originalSha256)) {
                entry.applied = false;
                entry.notApplied = file + " changed since the patch was made (it was edited during the run): apply "
                        + entry.patch + " by hand with `git apply` after a look";
                return;
            }
            Path tmp = file.resolveSibling(file.getFileName() + ".odrust-tmp");
            Files.write(tmp, patched.getBytes(sources.encoding()));
            Files.move(
                    tmp,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            entry.applied = true;
        } catch (IOException | JavaSources.SourceException e) {
            throw new MojoExecutionException(
                    "could not apply the patch of " + entry.test + " to " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * What the target's records are facts about: this odrust, the compiled code, the source files
     * involved and each candidate's numbered statements.
     */
    private String fingerprint(Path file, Map<String, FixCode> fixes) throws MojoExecutionException {
        Set<Path> files = new java.util.TreeSet<>();
        files.add(file);
        fixes.values().stream().filter(f -> f.file != null).forEach(f -> files.add(f.file));
        StringBuilder all = new StringBuilder(engine.version())
                .append(" patcher ")
                .append(Patcher.VERSION)
                .append('\n')
                .append(candidates.codeDigest())
                .append('\n');
        try {
            for (Path f : files) {
                all.append(f)
                        .append('\n')
                        .append(sha256(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)))
                        .append('\n');
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
            throw new MojoExecutionException(
                    "could not write " + dir.resolve("repair.json") + ": " + e.getMessage(), e);
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
