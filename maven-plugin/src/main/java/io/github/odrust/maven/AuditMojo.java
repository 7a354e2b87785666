package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.audit.Auditor;
import io.github.odrust.maven.core.ListSetting;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.ReactorSummary;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Finds flakiness before a victim exists (docs/audit.md): tests that fail when run twice in one JVM
 * (non-idempotent: they pollute themselves), and latent polluters, tests after which a static field
 * stays changed, ranked by whether another test reads that field. Writes {@code
 * target/odrust/audit/report.json} and {@code report.html}.
 */
@Mojo(name = "audit", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class AuditMojo extends AbstractOdrustMojo {
    /** Comma-separated test classes to audit (simple or fully qualified names); all when unset. */
    @Parameter(property = "odrust.audit.classes")
    protected String classes;

    /** Audit only the test classes the last {@code odrust:incremental} selected (its selection.json). */
    @Parameter(property = "odrust.audit.incremental", defaultValue = "false")
    protected boolean incremental;

    /** Comma-separated class-name prefixes captured besides the module's own classes, e.g. com.acme.lib. */
    @Parameter(property = "odrust.audit.include")
    protected String include;

    /** Objects, elements and entries one capture may write before it marks the rest truncated. */
    @Parameter(property = "odrust.audit.limit", defaultValue = "200000")
    protected int limit;

    /** Tests failing on their second run that are confirmed in fresh JVMs at most; the engine's default when unset. */
    @Parameter(property = "odrust.audit.confirm")
    protected Integer confirm;

    /**
     * Make a teardown patch for each latent polluter that can have one (the module's own reset code,
     * or the field's value before the test set back), each verified in a run of the original order.
     */
    @Parameter(property = "odrust.audit.repair", defaultValue = "false")
    protected boolean repair;

    /** Latent polluters to make patches for at most (best-ranked first); the engine's default when unset. */
    @Parameter(property = "odrust.audit.repair.limit")
    protected Integer repairLimit;

    /** Fail the build when a non-idempotent test or a latent polluter of a field another test reads is found. */
    @Parameter(property = "odrust.failOnFlaky", defaultValue = "false")
    protected boolean failOnFlaky;

    /**
     * A directory that keeps one record per run (docs/history.md), relative to where Maven ran; a
     * CI cache or artifact keeps it between runs. {@code mvn odrust:history} shows it over time.
     */
    @Parameter(property = "odrust.history")
    protected String history;

    /** The commit a history record names; {@code git rev-parse HEAD} in the module when unset. */
    @Parameter(property = "odrust.history.commit")
    protected String historyCommit;

    /** The quarantine file (docs/history.md, "Quarantine"), relative to the module: failOnFlaky skips the tests it covers. */
    @Parameter(property = "odrust.quarantine", defaultValue = ".odrust/quarantine.json")
    protected String quarantine;

    /** The day quarantine expiries are checked against ({@code YYYY-MM-DD}); today (UTC) when unset. */
    @Parameter(property = "odrust.quarantine.today")
    protected String quarantineToday;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (limit < 1) {
            throw new MojoFailureException("odrust.audit.limit must be at least 1, not " + limit);
        }
        if (confirm != null && confirm < 0) {
            throw new MojoFailureException("odrust.audit.confirm must be 0 or more, not " + confirm);
        }
        if (incremental && classes != null && !classes.trim().isEmpty()) {
            throw new MojoFailureException("give odrust.audit.classes or odrust.audit.incremental, not both");
        }
        if (repairLimit != null && repairLimit < 0) {
            throw new MojoFailureException("odrust.audit.repair.limit must be 0 or more, not " + repairLimit);
        }
        if (repairLimit != null && !repair) {
            throw new MojoFailureException("odrust.audit.repair.limit is set but odrust.audit.repair is not:"
                    + " add -Dodrust.audit.repair=true to make patches, or leave the limit out");
        }
        String today = io.github.odrust.maven.history.Quarantine.today(quarantineToday);
        Auditor.Settings s = new Auditor.Settings();
        s.maxRepair = repairLimit;
        if (repair) {
            s.repair = repairSettings();
        }
        s.captureLimit = limit;
        s.maxConfirm = confirm;
        s.include.addAll(ListSetting.classPrefixes("odrust.audit.include", include));
        Path out = outputDirectory.toPath();
        Set<String> wanted = incremental ? incrementalSelection(out) : null;
        Engine engine = engine();
        TestModule module = testModule();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        if (wanted == null && classes != null && !classes.trim().isEmpty()) {
            wanted = named(suite, classes);
        }
        DiscoveredSuite audited = wanted == null ? suite : suite.only(wanted);
        List<String> tests = Discovery.originalOrder(audited);
        if (tests.isEmpty()) {
            getLog().info("odrust audit: " + module.id() + ": no test to audit"
                    + (incremental ? " (the last odrust:incremental selected no test class)" : ""));
            return;
        }
        String reproduce = "mvn " + invocation("run-order") + " -Dodrust.order='{order}'";
        List<String> allClasses = new ArrayList<>();
        suite.classes.forEach(c -> allClasses.add(c.className));
        String build = io.github.odrust.maven.incremental.Selection.buildFingerprint(
                module,
                project.getBasedir().toPath(),
                session.getLocalRepository() == null
                        ? null
                        : session.getLocalRepository().getBasedir());
        JsonObject report =
                new Auditor(engine, module, audited, tests, allClasses, build, out, s, getLog()).run(reproduce);
        JsonObject outcome = report.getAsJsonObject("outcome");
        int nio = outcome.getAsJsonArray("non_idempotent").size();
        int high = 0;
        for (JsonElement p : outcome.getAsJsonArray("latent_polluters")) {
            if ("high".equals(p.getAsJsonObject().get("rank").getAsString())) {
                high++;
            }
        }
        int latent = outcome.getAsJsonArray("latent_polluters").size();
        ReactorSummary.add(
                session,
                project,
                module.id(),
                "audit: " + nio + " non-idempotent, " + Words.count(latent, "latent polluter"),
                getLog());
        record(module.id(), tests, outcome);
        // what would fail the build, less what the quarantine file covers
        List<String> nios = new ArrayList<>();
        for (JsonElement e : outcome.getAsJsonArray("non_idempotent")) {
            nios.add(e.getAsJsonObject().get("test").getAsString());
        }
        List<String> highs = new ArrayList<>();
        for (JsonElement p : outcome.getAsJsonArray("latent_polluters")) {
            if ("high".equals(p.getAsJsonObject().get("rank").getAsString())) {
                highs.add(p.getAsJsonObject().get("test").getAsString());
            }
        }
        List<String> failing = new ArrayList<>(nios);
        highs.stream().filter(t -> !failing.contains(t)).forEach(failing::add);
        io.github.odrust.maven.history.Quarantine.Verdict q = io.github.odrust.maven.history.Quarantine.checkTests(
                engine,
                io.github.odrust.maven.history.Quarantine.file(
                        quarantine, project.getBasedir().toPath()),
                today,
                failing,
                getLog());
        if (failOnFlaky && !q.expired.isEmpty()) {
            throw new MojoFailureException(module.id() + ": " + q.expired.size() + " quarantine entr"
                    + (q.expired.size() == 1 ? "y" : "ies") + " of " + q.file
                    + " expired (-Dodrust.failOnFlaky=true):\n  "
                    + String.join("\n  ", q.expired)
                    + "\nFix the test and remove the entry, or give it a later `expires`.");
        }
        nios.removeIf(q.quarantined::contains);
        highs.removeIf(q.quarantined::contains);
        nio = nios.size();
        high = highs.size();
        if (failOnFlaky && (nio > 0 || high > 0)) {
            throw new MojoFailureException(module.id() + ": " + nio + " non-idempotent, "
                    + Words.count(high, "latent polluter") + " of a field another test reads; see "
                    + out.resolve("audit").resolve("report.html"));
        }
    }

    /** Where teardown patches are made from: the test sources, their encoding and Java level, where Maven ran. */
    private io.github.odrust.maven.repair.od.Repairer.Settings repairSettings() {
        io.github.odrust.maven.repair.od.Repairer.Settings r = new io.github.odrust.maven.repair.od.Repairer.Settings();
        r.basedir = project.getBasedir().toPath();
        String executionRoot = session.getExecutionRootDirectory();
        r.root = executionRoot != null ? Path.of(executionRoot) : r.basedir;
        project.getTestCompileSourceRoots().forEach(root -> r.testSourceRoots.add(new java.io.File(root)));
        r.encoding = project.getProperties().getProperty("project.build.sourceEncoding");
        r.release = compilerLevel(true);
        return r;
    }

    /** With -Dodrust.history: the run's record (its findings as tests, its verified patches). */
    private void record(String module, List<String> tests, JsonObject outcome) throws MojoExecutionException {
        io.github.odrust.maven.history.RunRecords records = runRecords(history, historyCommit);
        if (records == null) {
            return;
        }
        JsonObject record = records.start("audit", module);
        record.addProperty("complete", true);
        record.add("ran", io.github.odrust.engine.Json.WIRE.toJsonTree(tests));
        for (JsonElement e : outcome.getAsJsonArray("non_idempotent")) {
            io.github.odrust.maven.history.RunRecords.found(
                    record, e.getAsJsonObject().get("test").getAsString(), "non-idempotent");
        }
        for (JsonElement e : outcome.getAsJsonArray("latent_polluters")) {
            JsonObject p = e.getAsJsonObject();
            String test = p.get("test").getAsString();
            if (!test.contains("#")) {
                continue;
            }
            io.github.odrust.maven.history.RunRecords.found(record, test, "latent-polluter");
            JsonObject fix = p.has("fix") && p.get("fix").isJsonObject() ? p.getAsJsonObject("fix") : null;
            if (fix != null && "patched".equals(fix.get("status").getAsString()) && fix.has("patch")) {
                io.github.odrust.maven.history.RunRecords.patch(
                        record, List.of(test), "patched", fix.get("patch").getAsString(), false);
            }
        }
        records.append(record, getLog());
    }

    /** The test classes of the suite named in {@code value}, by simple or fully qualified name. */
    static Set<String> named(DiscoveredSuite suite, String value) throws MojoFailureException {
        Set<String> out = new LinkedHashSet<>();
        List<String> unknown = new ArrayList<>();
        for (String raw : value.split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) {
                continue;
            }
            List<String> matches = new ArrayList<>();
            for (DiscoveredSuite.ClassRecord c : suite.classes) {
                String simple = c.className.substring(c.className.lastIndexOf('.') + 1);
                if (c.className.equals(name) || simple.equals(name)) {
                    matches.add(c.className);
                }
            }
            if (matches.isEmpty()) {
                unknown.add(name);
            } else if (matches.size() > 1 && !matches.contains(name)) {
                throw new MojoFailureException("odrust.audit.classes: '" + name + "' names "
                        + String.join(" and ", matches) + "; give the fully qualified name");
            } else {
                out.add(matches.contains(name) ? name : matches.get(0));
            }
        }
        if (!unknown.isEmpty()) {
            List<String> known = new ArrayList<>();
            suite.classes.stream().limit(5).forEach(c -> known.add(c.className));
            throw new MojoFailureException("odrust.audit.classes: no test class " + String.join(", ", unknown)
                    + " in this module; its test classes are e.g. " + String.join(", ", known));
        }
        return out;
    }

    /** The classes the last odrust:incremental selected. */
    static Set<String> incrementalSelection(Path out) throws MojoFailureException {
        Path file = out.resolve("incremental").resolve("selection.json");
        if (!Files.isRegularFile(file)) {
            throw new MojoFailureException("odrust.audit.incremental: " + file + " does not exist; run mvn"
                    + " odrust:incremental first (or leave odrust.audit.incremental out to audit every test)");
        }
        try {
            JsonObject selection = JsonParser.parseString(new String(Files.readAllBytes(file), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            Set<String> out2 = new LinkedHashSet<>();
            if (selection.has("selected")) {
                for (JsonElement e : selection.getAsJsonArray("selected")) {
                    out2.add(e.getAsJsonObject().get("class").getAsString());
                }
            }
            return out2;
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException("odrust.audit.incremental: cannot read " + file + " (" + e.getMessage()
                    + "); run mvn odrust:incremental again");
        }
    }
}
