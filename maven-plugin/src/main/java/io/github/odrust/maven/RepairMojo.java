package io.github.odrust.maven;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.repair.RepairFile;
import io.github.odrust.maven.repair.id.IdRepairer;
import io.github.odrust.maven.repair.od.Repairer;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Makes one verified patch for each root cause the last {@code odrust:detect} found (victims of
 * the same polluters, brittles of the same state-setters): the fewest statements of a cleaner
 * (state-setter) that still make every test of the cause pass, checked in their failing orders,
 * alone, in their classes and in the module's original order, and that apply as written. Writes
 * {@code target/odrust/repair/cause-N.patch}, {@code repair.json} and the fixes into report.json and
 * report.html; changes the sources only with {@code -Dodrust.repair.apply=true}.
 */
@Mojo(name = "repair", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class RepairMojo extends AbstractOdrustMojo {
    /** Repair only this order-dependent test of report.json, e.g. com.acme.CartTest#isEmpty. */
    @Parameter(property = "odrust.test")
    protected String test;

    /** Also write each verified patch into the test sources (only files unchanged since the patch was made). */
    @Parameter(property = "odrust.repair.apply", defaultValue = "false")
    protected boolean apply;

    /** Test JVMs one flaky test may spend (candidates that do not compile do not count); the engine's default when unset. */
    @Parameter(property = "odrust.repair.budget")
    protected Integer budget;

    /**
     * Diagnose each victim first (odrust:diagnose) and, after its cleaners, try calls of the
     * module's own reset methods for the polluted state it confirms.
     */
    @Parameter(property = "odrust.repair.diagnose", defaultValue = "true")
    protected boolean diagnose;

    /**
     * {@code classloader}: minimize candidate patches in shared JVMs with fresh class loaders once
     * the module's last detect passed the isolation check; every check of a minimal patch runs
     * in a fresh JVM (docs/isolation.md). {@code jvm} (default): every experiment in a fresh JVM.
     */
    @Parameter(property = "odrust.isolation", defaultValue = "jvm")
    protected String isolation;

    /**
     * A directory that keeps one record per run (docs/history.md), relative to where Maven ran; a
     * CI cache or artifact keeps it between runs. {@code mvn odrust:history} shows it over time.
     */
    @Parameter(property = "odrust.history")
    protected String history;

    /** The commit a history record names; {@code git rev-parse HEAD} in the module when unset. */
    @Parameter(property = "odrust.history.commit")
    protected String historyCommit;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (!"jvm".equals(isolation) && !"classloader".equals(isolation)) {
            throw new MojoFailureException(
                    "odrust.isolation=" + isolation + " is not an isolation: use jvm (a fresh test"
                            + " JVM per experiment, the default) or classloader (candidates minimized in a shared JVM; docs/isolation.md)");
        }
        if (budget != null && budget < 1) {
            throw new MojoFailureException("odrust.repair.budget must be at least 1 experiment, not " + budget);
        }
        Engine engine = engine();
        Path out = outputDirectory.toPath();
        JsonObject idReport = IdRepairer.report(out, engine.version());
        boolean od = idReport == null || java.nio.file.Files.isRegularFile(out.resolve("report.json"));
        if (od) {
            Repairer.checkInput(
                    out, engine.version(), test); // before anything runs: a missing report or test fails fast
        }
        TestModule module = testModule();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        if (idReport != null) {
            repairIdTests(engine, module, suite, out, idReport);
        }
        if (!od) {
            return;
        }
        Repairer.Settings s = new Repairer.Settings();
        s.test = test;
        s.apply = apply;
        s.budget = budget;
        s.diagnose = diagnose;
        s.isolation = isolation;
        s.basedir = project.getBasedir().toPath();
        // Where mvn ran (the reactor's root even with -pl): patch paths are relative to it.
        String executionRoot = session.getExecutionRootDirectory();
        s.root = executionRoot != null
                ? Path.of(executionRoot)
                : project.getBasedir().toPath();
        project.getTestCompileSourceRoots().forEach(r -> s.testSourceRoots.add(new File(r)));
        s.encoding = project.getProperties().getProperty("project.build.sourceEncoding");
        s.release = compilerLevel(true);
        RepairFile result = new Repairer(engine, module, suite, out, s, getLog()).run();
        print(result, s);
        io.github.odrust.maven.history.RunRecords records = runRecords(history, historyCommit);
        if (records != null) {
            JsonObject record = records.start("repair", module.id());
            record.addProperty("complete", result.complete);
            for (RepairFile.Entry e : result.ran) {
                io.github.odrust.maven.history.RunRecords.patch(
                        record, e.members.isEmpty() ? List.of(e.test) : e.members, e.status, e.patch, e.applied);
            }
            records.append(record, getLog());
        }
    }

    /** The implementation-dependent tests of the last odrust:detect-id (docs/id-tests.md). */
    private void repairIdTests(Engine engine, TestModule module, DiscoveredSuite suite, Path out, JsonObject report)
            throws MojoExecutionException {
        IdRepairer.Settings s = new IdRepairer.Settings();
        s.apply = apply;
        s.test = test;
        project.getCompileSourceRoots().forEach(r -> s.sourceRoots.add(new File(r)));
        project.getTestCompileSourceRoots().forEach(r -> s.sourceRoots.add(new File(r)));
        s.encoding = project.getProperties().getProperty("project.build.sourceEncoding");
        s.release = compilerLevel(false);
        s.testRelease = compilerLevel(true);
        project.getTestCompileSourceRoots().forEach(r -> s.testSourceRoots.add(new File(r)));
        String executionRoot = session.getExecutionRootDirectory();
        s.root = executionRoot != null
                ? Path.of(executionRoot)
                : project.getBasedir().toPath();
        List<JsonObject> entries = new IdRepairer(engine, module, suite, out, s, getLog()).run(report);
        // tests pinned to one call site share one patch
        long patched = entries.stream()
                .filter(e -> "patched".equals(e.get("status").getAsString()))
                .map(e -> e.get("patch").getAsString())
                .distinct()
                .count();
        for (JsonObject e : entries) {
            if ("no-candidate".equals(e.get("status").getAsString())) {
                getLog().warn(String.format(
                        "no patch %s: %s",
                        e.get("test").getAsString(), e.get("reason").getAsString()));
            }
        }
        getLog().info("odrust repair: " + Words.count(patched, "verified patch") + " for "
                + Words.count(entries.size(), "implementation-dependent test") + "; details in "
                + out.resolve("repair").resolve("id-repair.json"));
    }

    private void print(RepairFile result, Repairer.Settings s) {
        int patched = 0;
        int tests = 0;
        for (RepairFile.Entry e : result.ran) {
            tests += Math.max(1, e.members.size());
            String what = e.members.size() > 1
                    ? (e.cause != null ? "cause " + e.cause + " (" : "(") + Words.count(e.members.size(), e.kind) + ": "
                            + e.test + ", ...)"
                    : e.test;
            if ("patched".equals(e.status)) {
                patched++;
                String how = e.applied
                        ? "applied to " + e.file
                        : apply
                                ? "not applied: " + e.notApplied
                                : "apply it from " + s.root + " with `" + e.apply + "`";
                String from = e.source != null && "reset-method".equals(e.source.kind)
                        ? "with the module's own code: " + String.join(" ", e.statements)
                        : e.statements.size() + " of " + e.statementsTotal + " statements kept";
                getLog().info(String.format(
                        "patched  %s: %s (%s; %s, %s)",
                        what, e.patch, how, Words.count(e.experiments, "experiment"), from));
            } else {
                String why = e.reason;
                if ("rejected".equals(e.status) && !e.tried.isEmpty()) {
                    why = why + "; the last: " + e.tried.get(e.tried.size() - 1).why;
                }
                getLog().warn(String.format("no patch %s: %s", what, why));
            }
        }
        getLog().info("odrust repair: " + Words.count(patched, "verified patch") + " for "
                + Words.count(tests, "order-dependent test") + " in " + Words.count(result.ran.size(), "repair")
                + "; details in " + outputDirectory.toPath().resolve("repair").resolve("repair.json")
                + " and report.html");
    }
}
