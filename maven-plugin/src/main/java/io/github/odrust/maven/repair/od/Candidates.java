package io.github.odrust.maven.repair.od;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.RepairStep;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.repair.CandidateCompiler;
import io.github.odrust.maven.repair.JavaSources;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * Running the engine's repair experiments: each candidate patch built (the file of the test it
 * edits, read once), compiled once into {@code repair/candidates/<key>/} (or its compile error
 * remembered), and run in a fresh JVM with that directory first on the classpath; an experiment
 * that would run the same code in the same order again takes the earlier results instead.
 */
final class Candidates {
    private final Engine engine;
    private final TestModule module;
    private final DiscoveredSuite suite;
    private final Path dir;
    private final JavaSources sources;
    private final CandidateCompiler compiler;
    private final Log log;
    /** Candidates compiled in this run, and those that did not compile (with the error), by key. */
    private final Set<String> compiled = new HashSet<>();

    private final Map<String, String> compileErrors = new HashMap<>();
    /** The source files patches may edit, by the test they are edited for: the flaky tests' and polluters'. */
    private final Map<String, Editable> editables = new HashMap<>();
    /** A digest of the compiled code and the classpath: a record made against other code is ignored. */
    private String codeDigest;
    /** What the patch's comment names, and whether it repairs a cause of several tests. */
    private String label = "";
    /** The shared JVMs minimization may run in (odrust.isolation=classloader), or null. */
    private RepairJvms jvms;

    /** The tests being repaired (one patch for all). */
    private List<String> members = List.of();

    private boolean cause;

    Candidates(
            Engine engine,
            TestModule module,
            DiscoveredSuite suite,
            Path dir,
            JavaSources sources,
            CandidateCompiler compiler,
            Log log) {
        this.engine = engine;
        this.module = module;
        this.suite = suite;
        this.dir = dir;
        this.sources = sources;
        this.compiler = compiler;
        this.log = log;
    }

    /** A source file a patch may edit: a flaky test's, or a polluter's (for a teardown patch). */
    static final class Editable {
        Path file;
        String text;
        Patcher patcher;
        /** Why it cannot be edited, or null. */
        String error;
    }

    /** The file declaring {@code test}'s class, read and checked once per test (a patch names its method). */
    Editable editable(String test) {
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
    static String edited(String placement, String test, String polluter) {
        return "polluter-teardown".equals(placement) && polluter != null ? polluter : test;
    }

    /**
     * Says which tests the next experiments repair: {@code label} names them in the patch's
     * comment, and for a cause of several tests ({@code cause}) the helper method is named for
     * the cause (its polluter, or its state-setter), not for one of them.
     */
    void repairing(String label, List<String> members) {
        this.label = label;
        this.members = members;
        this.cause = members.size() > 1;
    }

    /** The patcher of {@code ed} for the tests being repaired (see {@link #repairing}). */
    Patcher patcher(Editable ed, String polluter, String source) {
        if (!cause) {
            return ed.patcher;
        }
        String named = polluter != null ? polluter : source;
        return ed.patcher.withCauseName(named.substring(named.indexOf('#') + 1));
    }

    /** Runs the experiments the engine marks shareable in {@code jvms} (null: every one in a fresh JVM). */
    void shared(RepairJvms jvms) {
        this.jvms = jvms;
    }

    /** Builds, compiles and runs one experiment; returns its record. */
    JsonObject run(
            RepairStep.Experiment e,
            Map<String, FixCode> fixes,
            String fingerprint,
            boolean victim,
            ExperimentLog history)
            throws MojoExecutionException {
        JsonObject record = Json.WIRE.toJsonTree(e).getAsJsonObject();
        record.addProperty("fingerprint", fingerprint);
        Path classes = null;
        String candidateText = null;
        String candidateFile = null;
        String key;
        if (e.source == null) {
            key = Repairer.sha256(codeDigest() + "\nunpatched").substring(0, 16);
        } else {
            FixCode fix = fixes.get(e.source);
            String editedTest = edited(e.placement, e.test, e.polluter);
            Editable ed = editable(editedTest);
            if (ed.error != null) {
                return notCompiled(record, e, "cannot edit " + editedTest + "'s class: " + ed.error);
            }
            Patcher.Result candidate;
            String comment = comment(label, e.polluter, fix.test, victim);
            try {
                candidate = patch(patcher(ed, e.polluter, fix.test), fix, e.statements, e.placement, victim, comment);
            } catch (JavaSources.SourceException ex) {
                return notCompiled(record, e, ex.getMessage());
            }
            // The same code (whatever the comment names) in the same order is the same experiment.
            key = key(candidate.text, comment);
            classes = dir.resolve("candidates").resolve(key).resolve("classes");
            candidateText = candidate.text;
            candidateFile = relativeSource(editedTest);
        }
        record.addProperty("candidate", key);
        if (compileErrors.containsKey(key)) {
            return notCompiled(record, e, compileErrors.get(key));
        }
        boolean share = jvms != null && Boolean.TRUE.equals(e.shareable);
        // a check of a patch (not shareable) never takes a shared JVM's results
        JsonObject earlier = earlier(history, key, e.order, share);
        if (earlier != null) {
            return reused(record, e, earlier);
        }
        if (candidateText != null && !compiled.contains(key)) {
            try {
                String error = compiler.compile(candidateText, candidateFile, classes.getParent());
                if (error != null) {
                    compileErrors.put(key, error);
                    return notCompiled(record, e, error);
                }
            } catch (IOException | CandidateCompiler.NoCompilerException ex) {
                throw new MojoExecutionException(
                        "odrust:repair could not compile a candidate patch: " + ex.getMessage(), ex);
            }
            compiled.add(key);
        }
        Path expDir = dir.resolve("exp-" + e.id);
        OrderRunner runner = new OrderRunner(module, engine, suite, expDir, log).quiet();
        if (classes != null) {
            runner.classpathFirst(classes.toFile());
        }
        if (share) {
            try {
                runner.shared(jvms.jvm());
            } catch (IOException ex) {
                throw new MojoExecutionException("odrust:repair could not start a shared JVM: " + ex.getMessage(), ex);
            }
        }
        long start = System.nanoTime();
        RunResult result = runner.run(String.join("\n", e.order), "repair experiment " + e.id);
        record.add("results", result.resultsJson());
        record.addProperty("honoured", Boolean.TRUE.equals(result.honoured));
        boolean ranShared = !result.jvms.isEmpty() && result.jvms.get(0).shared;
        if (ranShared) {
            record.addProperty("isolation", "classloader");
        }
        progress(
                e,
                outcomes(result)
                        + String.format(Locale.ROOT, " (%.1f s)", (System.nanoTime() - start) / 1e9)
                        + (ranShared ? "  (shared JVM)" : ""));
        return record;
    }

    /**
     * How the tests being repaired ended: "CartTest#isEmpty PASS" for one, "3 of 4 passed
     * (CartTest#total FAIL)" for a cause's tests that ran; "polluter's class" when none ran.
     */
    private String outcomes(RunResult result) {
        List<String> ran = new java.util.ArrayList<>();
        String failed = null;
        for (String m : members) {
            String outcome = null;
            for (RunResult.TestResult r : result.results) {
                if (r.test.equals(m) || r.test.startsWith(m + "[")) {
                    outcome = "pass".equals(outcome) || outcome == null ? r.outcome : outcome;
                }
            }
            if (outcome == null) {
                continue;
            }
            ran.add(m);
            if (!"pass".equals(outcome) && failed == null) {
                failed = io.github.odrust.maven.core.Words.shortId(m) + " " + outcome.toUpperCase(Locale.ROOT);
            }
        }
        if (ran.isEmpty()) {
            return "none of its tests ran";
        }
        if (members.size() == 1) {
            return failed != null ? failed : io.github.odrust.maven.core.Words.shortId(ran.get(0)) + " PASS";
        }
        return failed == null ? ran.size() + " of " + ran.size() + " passed" : "not all passed (" + failed + ")";
    }

    /**
     * The candidate {@code patcher} makes of {@code statements}, its helper declaring {@code throws
     * Exception} only when its code needs it: when, without it, the first compile error is an
     * unreported (checked) exception. Code whose source declares no checked exception needs none
     * (calls of reset methods are compiled to know). The code without it is compiled once per run,
     * as any candidate. Repairer rebuilds a verified patch with this same call.
     */
    Patcher.Result patch(
            Patcher patcher, FixCode fix, List<Integer> statements, String placement, boolean victim, String comment)
            throws JavaSources.SourceException, MojoExecutionException {
        Patcher.Result plain = patcher.patch(fix, statements, placement(placement), victim, comment, false);
        if (fix.thrown.isEmpty() && !fix.generated) {
            return plain;
        }
        String key = key(plain.text, comment);
        if (!compiled.contains(key) && !compileErrors.containsKey(key)) {
            try {
                String error = compiler.compile(
                        plain.text,
                        relativeSource(patcher.test()),
                        dir.resolve("candidates").resolve(key));
                if (error == null) {
                    compiled.add(key);
                } else {
                    compileErrors.put(key, error);
                }
            } catch (IOException | CandidateCompiler.NoCompilerException ex) {
                throw new MojoExecutionException(
                        "odrust:repair could not compile a candidate patch: " + ex.getMessage(), ex);
            }
        }
        String error = compileErrors.get(key);
        return error != null && error.contains("unreported exception")
                ? patcher.patch(fix, statements, placement(placement), victim, comment, true)
                : plain;
    }

    /** A candidate's key: the same code (whatever the comment names) with the same compiled classes. */
    private String key(String text, String comment) throws MojoExecutionException {
        String code = text;
        for (String line : comment.split("\n")) {
            code = code.replace("// " + line, "//");
        }
        return Repairer.sha256(codeDigest() + "\n" + code).substring(0, 16);
    }

    private JsonObject notCompiled(JsonObject record, RepairStep.Experiment e, String error) {
        record.addProperty("compile_error", error);
        record.add("results", new JsonArray());
        progress(e, "does not compile: " + error);
        return record;
    }

    /**
     * The first earlier record (of any test) that ran candidate {@code key} in {@code order}, whose
     * results this experiment takes, or null; one that ran in a shared JVM only when this one may
     * ({@code shareable}).
     */
    private static JsonObject earlier(ExperimentLog history, String key, List<String> order, boolean shareable) {
        JsonArray wanted = Json.WIRE.toJsonTree(order).getAsJsonArray();
        for (com.google.gson.JsonElement el : history.history()) {
            JsonObject r = el.getAsJsonObject();
            if (r.has("candidate")
                    && key.equals(r.get("candidate").getAsString())
                    && wanted.equals(r.get("order"))
                    && (!r.has("compile_error") || r.get("compile_error").isJsonNull())
                    && !r.has("reused_from")
                    && (shareable || !r.has("isolation"))) {
                return r;
            }
        }
        return null;
    }

    private JsonObject reused(JsonObject record, RepairStep.Experiment e, JsonObject earlier) {
        record.add("results", earlier.get("results").deepCopy());
        if (earlier.has("honoured")) {
            record.add("honoured", earlier.get("honoured").deepCopy());
        }
        record.addProperty("reused_from", earlier.get("id").getAsInt());
        if (earlier.has("isolation")) {
            record.add("isolation", earlier.get("isolation").deepCopy());
        }
        progress(e, "same code and order as experiment " + earlier.get("id").getAsInt() + ": its results");
        return record;
    }

    private void progress(RepairStep.Experiment e, String what) {
        String candidate = e.source == null
                ? "no patch"
                : e.placement + ", " + e.statements.size() + " statement" + (e.statements.size() == 1 ? "" : "s");
        log.info(String.format(Locale.ROOT, "repair exp %4d  %-22s %-24s %s", e.id, e.check, candidate, what));
    }

    /** The comment above the inserted code: two lines, naming the polluter (victim), the flaky test and the source. */
    static String comment(String test, String polluter, String source, boolean victim) {
        if (ResetSources.isPassingValue(source)) {
            return "odrust: sets back what " + polluter + " leaves behind, which fails\n" + test
                    + " (to the value it has when the test passes; see odrust:diagnose)";
        }
        if (ResetSources.isReset(source)) {
            return "odrust: resets what " + polluter + " leaves behind, which fails\n" + test
                    + " (with the module's own reset code; see odrust:diagnose)";
        }
        return victim
                ? "odrust: undoes what " + polluter + " leaves behind, which fails\n" + test + " (from the cleaner "
                        + source + ")"
                : "odrust: sets up what " + test + " needs and does not set\nitself (from the state-setter " + source
                        + ")";
    }

    static Patcher.Placement placement(String p) {
        return "test".equals(p)
                ? Patcher.Placement.TEST
                : "polluter-teardown".equals(p) ? Patcher.Placement.TEARDOWN : Patcher.Placement.SETUP;
    }

    private String relativeSource(String test) {
        String className = test.substring(0, test.indexOf('#'));
        String top = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        return top.replace('.', '/') + ".java";
    }

    /**
     * The module's compiled main and test classes (the contents of their .class files; resources
     * are left out, since builds often stamp them) and the rest of its test classpath (paths and
     * sizes): a repair experiment is a fact about this code only.
     */
    String codeDigest() throws MojoExecutionException {
        if (codeDigest != null) {
            return codeDigest;
        }
        try {
            codeDigest = io.github.odrust.maven.run.CodeDigest.of(module);
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "cannot read the module's classes to fingerprint them: " + e.getMessage(), e);
        }
        return codeDigest;
    }
}
