package io.github.odrust.maven.repair.od;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.AuditRequest;
import io.github.odrust.engine.protocol.AuditStep;
import io.github.odrust.engine.protocol.ResetRequest;
import io.github.odrust.engine.protocol.ResetResponse;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.repair.CandidateCompiler;
import io.github.odrust.maven.repair.JavaSources;
import io.github.odrust.maven.repair.PatchCheck;
import io.github.odrust.maven.repair.UnifiedPatch;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * Teardown patches for the latent polluters of {@code odrust:audit -Dodrust.audit.repair=true}
 * (docs/audit.md, "Patches"): the statements the engine's {@code reset_methods} finds for the
 * field (the module's own reset methods, else the field's value right before the test set back),
 * each put in the polluter's own teardown ({@code @After}/{@code @AfterEach}) by the same {@link
 * Patcher} as {@code odrust:repair}'s {@code polluter-teardown} patches, and compiled once into
 * {@code audit/fixes/<id>/classes}. The audit planner runs each with that directory first on the
 * classpath; the one it verifies is written as a patch that must apply as written.
 */
public final class LatentFixes {
    private final Engine engine;
    private final TestModule module;
    private final Path dir;
    private final Repairer.Settings settings;
    private final String digest;
    private final JavaSources sources;
    private final CandidateCompiler compiler;
    /** Each candidate made in this run, by id. */
    private final Map<String, Made> made = new HashMap<>();

    /** A candidate: the patched source of the polluter's class. */
    private static final class Made {
        Path file;
        String original;
        String text;
    }

    /**
     * Candidates written under {@code dir}; {@code digest}, a digest of the module's code, goes into
     * each candidate's id (a record of a candidate made against other code is not one of these).
     */
    public LatentFixes(Engine engine, TestModule module, Path dir, Repairer.Settings settings, String digest) {
        this.engine = engine;
        this.module = module;
        this.dir = dir;
        this.settings = settings;
        // a candidate compiled at another level or encoding is another candidate
        this.digest = digest + "\nrelease " + settings.release + "\nencoding " + settings.encoding;
        java.nio.charset.Charset cs = settings.encoding == null
                ? java.nio.charset.StandardCharsets.UTF_8
                : java.nio.charset.Charset.forName(settings.encoding);
        this.sources = new JavaSources(settings.testSourceRoots, cs);
        this.compiler = new CandidateCompiler(module.classpath, cs, settings.release);
    }

    /** The candidates for one latent polluter, best first, each compiled (or with its compile error). */
    public AuditRequest.FixCandidates candidates(AuditStep.Wanted w) throws MojoExecutionException {
        AuditRequest.FixCandidates out = new AuditRequest.FixCandidates();
        out.test = w.test;
        out.field = w.field;
        Path file;
        String text;
        Patcher patcher;
        try {
            file = sources.find(w.className);
            text = sources.read(file);
            patcher = new Patcher(method(w.test), file, text);
            patcher.check();
        } catch (JavaSources.SourceException e) {
            out.note = "cannot edit " + w.test + "'s class: " + e.getMessage();
            return out;
        }
        int dot = w.field.lastIndexOf('.');
        ResetRequest request = new ResetRequest();
        for (File f : module.classpath) {
            if (f.isDirectory() && !f.equals(module.agentJar)) {
                request.classDirs.add(f.getAbsolutePath());
            }
        }
        request.field = new ResetRequest.FieldId(w.field.substring(0, dot), w.field.substring(dot + 1));
        JsonArray paths = new JsonArray();
        for (String p : w.paths) {
            JsonObject o = new JsonObject();
            o.addProperty("path", p);
            paths.add(o);
        }
        request.innerFields = ResetSources.innerFields(w.field, paths);
        request.testClass = w.className;
        request.polluterClass = w.className;
        request.passingCapture = w.beforeCapture;
        request.failingCapture = w.afterCapture;
        ResetResponse response = engine.call("reset_methods", request, ResetResponse.class);
        List<ResetResponse.Candidate> usable = new ArrayList<>();
        for (ResetResponse.Candidate c : response.candidates) {
            if (c.placements.contains("polluter-teardown") && usable.size() < ResetSources.SINGLES) {
                usable.add(c);
            }
        }
        if (usable.isEmpty()) {
            out.note = "no method of the module resets " + w.field + " from " + w.className
                    + (response.directRestoreRefused == null
                            ? ""
                            : ", and it is not set back directly: " + response.directRestoreRefused)
                    + "; a static method that sets it back, callable from the test, would let odrust make a patch";
            return out;
        }
        for (ResetResponse.Candidate c : usable) {
            out.candidates.add(candidate(w, c, file, text, patcher));
        }
        return out;
    }

    private AuditRequest.FixCandidate candidate(
            AuditStep.Wanted w, ResetResponse.Candidate c, Path file, String text, Patcher patcher)
            throws MojoExecutionException {
        AuditRequest.FixCandidate out = new AuditRequest.FixCandidate();
        out.statements.addAll(c.statements);
        FixCode fix = FixCode.generated("reset-method:audit", w.className, c.statements);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < fix.statements.size(); i++) {
            all.add(i);
        }
        String comment = comment(w, c);
        try {
            Patcher.Result plain = patcher.patch(fix, all, Patcher.Placement.TEARDOWN, true, comment, false);
            String error = compile(plain.text, w.className);
            Patcher.Result result = plain;
            if (error != null && error.contains("unreported exception")) {
                result = patcher.patch(fix, all, Patcher.Placement.TEARDOWN, true, comment, true);
                error = compile(result.text, w.className);
            }
            out.id = id(result.text);
            out.compileError = error;
            Made m = new Made();
            m.file = file;
            m.original = text;
            m.text = result.text;
            made.put(out.id, m);
        } catch (JavaSources.SourceException e) {
            out.id = id(text + "\n" + String.join("\n", c.statements));
            out.compileError = "cannot be placed in the teardown: " + e.getMessage();
        }
        return out;
    }

    /**
     * The test's method as {@code Patcher} finds it: a parameterized invocation's index left off
     * ({@code C#m[2]} gives {@code C#m}), the parameter types of an overloaded method kept ({@code
     * C#m(int)[1]} gives {@code C#m(int)}).
     */
    static String method(String test) {
        int hash = test.indexOf('#');
        int bracket = test.indexOf('[', hash);
        int paren = test.indexOf('(', hash);
        if (bracket < 0) {
            return test;
        }
        if (paren >= 0 && paren < bracket) {
            int close = test.indexOf(')', paren);
            return close >= 0 ? test.substring(0, close + 1) : test;
        }
        return test.substring(0, bracket);
    }

    /** The method's bare name ({@code bar} of {@code C#bar(int)[1]}). */
    static String name(String test) {
        String m = method(test).substring(test.indexOf('#') + 1);
        int paren = m.indexOf('(');
        return paren >= 0 ? m.substring(0, paren) : m;
    }

    /** The comment above the added method: what it sets back and why. */
    static String comment(AuditStep.Wanted w, ResetResponse.Candidate c) {
        String how = "passing-value".equals(c.kind)
                ? "to the value it had before the test"
                : "with the module's own reset code";
        return "odrust: sets back " + w.field + ", which the test " + name(w.test) + "() leaves changed\n(" + how
                + "; found by odrust:audit before any test fails because of it)";
    }

    private String id(String text) {
        return Repairer.sha256(digest + "\n" + text).substring(0, 16);
    }

    /** Compiles {@code text} into {@code fixes/<id>/classes}; the first error, or null. */
    private String compile(String text, String className) throws MojoExecutionException {
        String top = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        try {
            return compiler.compile(text, top.replace('.', '/') + ".java", dir.resolve(id(text)));
        } catch (IOException | CandidateCompiler.NoCompilerException e) {
            throw new MojoExecutionException("odrust:audit could not compile a candidate patch: " + e.getMessage(), e);
        }
    }

    /** The compiled classes of candidate {@code id}, to put first on the classpath. */
    public File classes(String id) throws MojoExecutionException {
        if (!made.containsKey(id)) {
            throw new MojoExecutionException(
                    "odrust:audit has no candidate patch " + id + " (a bug: please report it)");
        }
        return dir.resolve(id).resolve("classes").toFile();
    }

    /** Removes the patch files of an earlier run (numbered as that run found them). */
    public void clearPatches() throws MojoExecutionException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String n = f.getFileName().toString();
                if (n.startsWith("fix-") && n.endsWith(".patch")) {
                    Files.delete(f);
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "could not remove the earlier patches in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes candidate {@code id} as {@code name} (a unified diff from where Maven ran) and checks
     * that it applies as written; fills {@code fix}'s {@code patch} and {@code apply}, or turns it
     * into {@code no-patch} with why.
     */
    public void write(String id, String name, JsonObject fix) throws MojoExecutionException {
        Made m = made.get(id);
        if (m == null) {
            throw new MojoExecutionException(
                    "odrust:audit has no candidate patch " + id + " (a bug: please report it)");
        }
        Path patch = dir.resolve(name);
        try {
            Files.createDirectories(dir);
            Files.write(
                    patch,
                    UnifiedPatch.of(Repairer.relative(settings.root, m.file), m.original, m.text)
                            .getBytes(sources.encoding()));
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + patch + ": " + e.getMessage(), e);
        }
        PatchCheck.Result applies = PatchCheck.check(settings.root, patch);
        fix.addProperty("file", Repairer.relative(settings.basedir, m.file));
        if (!applies.ok()) {
            fix.addProperty("status", "no-patch");
            fix.addProperty(
                    "reason",
                    "the verified code was written as a patch that does not apply as written (" + applies.describe()
                            + "); this is a bug in odrust: please report it with " + patch);
            return;
        }
        fix.addProperty("patch", Repairer.relative(settings.basedir, patch));
        fix.addProperty("apply", PatchCheck.applyCommand(settings.root, Repairer.relative(settings.root, patch)));
    }
}
