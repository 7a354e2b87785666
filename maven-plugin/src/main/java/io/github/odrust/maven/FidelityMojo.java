package io.github.odrust.maven;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.CompareRequest;
import io.github.odrust.engine.protocol.Comparison;
import io.github.odrust.engine.protocol.SurefireReports;
import io.github.odrust.engine.protocol.SurefireRequest;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Checks that odrust runs this module faithfully: runs the original order through odrust and
 * compares every test's outcome with what Surefire reported in the same build. Run it after the
 * tests: {@code mvn test odrust:fidelity}. Writes {@code target/odrust/fidelity.json}.
 */
@Mojo(name = "fidelity", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
public class FidelityMojo extends AbstractOdrustMojo {
    /** Fail the build when outcomes differ (the default), or only report. */
    @Parameter(property = "odrust.fidelity.failOnMismatch", defaultValue = "true")
    protected boolean failOnMismatch;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        Engine engine = engine();
        TestModule module = testModule();
        File reports = module.settings.reportsDirectory != null
                ? module.settings.reportsDirectory
                : new File(project.getBuild().getDirectory(), "surefire-reports");
        if (!reports.isDirectory()) {
            throw new MojoFailureException(
                    "no Surefire reports in " + reports + " to compare with: run the module's tests in"
                            + " the same command, `mvn test odrust:fidelity` (add -Dmaven.test.failure.ignore=true if some tests fail).");
        }
        warnIfStale(reports, module.settings.testClassesDirectory);
        Path out = outputDirectory.toPath();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        Discovery.writeSuite(suite, out);
        String original = String.join("\n", Discovery.originalOrder(suite));
        RunResult run = new OrderRunner(module, engine, suite, out.resolve("fidelity"), getLog())
                .run(original, "the original order");

        List<SurefireReports.ReportedTest> expected = engine.call(
                        "read_surefire_reports", new SurefireRequest(reports.getAbsolutePath()), SurefireReports.class)
                .tests;
        CompareRequest compare = new CompareRequest();
        expected.forEach(t -> compare.expected.add(new CompareRequest.TestOutcome(t.test, t.outcome)));
        List<CompareRequest.TestOutcome> actual = compare.actual;
        run.results.forEach(r -> actual.add(new CompareRequest.TestOutcome(r.test, r.outcome)));
        // fidelity.json is the engine's comparison with the run's facts added.
        JsonObject verdict = engine.call("compare_outcomes", compare);
        Comparison comparison = Json.WIRE.fromJson(verdict, Comparison.class);
        verdict.addProperty("module", module.id());
        verdict.addProperty("surefire_reports", reports.getAbsolutePath());
        verdict.addProperty("surefire_tests", expected.size());
        verdict.addProperty("odrust_tests", actual.size());
        verdict.addProperty("order_honoured", run.honoured);
        verdict.addProperty("surefire_isolates_classes", module.settings.isolatesClasses());
        Path file = out.resolve("fidelity.json");
        try {
            Files.write(file, Json.PRETTY.toJson(verdict).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException("could not write " + file + ": " + e.getMessage(), e);
        }
        if (comparison.same) {
            getLog().info(
                            "fidelity: odrust's run of the original order gives the same outcomes as mvn test: every one of the "
                                    + expected.size() + " Surefire results matched by odrust's " + actual.size() + " ("
                                    + file + ")");
            return;
        }
        StringBuilder why = new StringBuilder("fidelity check FAILED for " + module.id()
                + ": running the original order through odrust did not give the outcomes mvn test gave, so odrust's"
                + " findings for this module cannot be trusted until this is explained.");
        for (Comparison.Difference d : comparison.differences) {
            why.append("\n  ")
                    .append(d.test)
                    .append(": mvn test ")
                    .append(d.expected)
                    .append(", odrust ")
                    .append(d.actual);
        }
        for (String t : comparison.onlyExpected) {
            why.append("\n  ").append(t).append(": run by mvn test, not found by odrust");
        }
        for (String t : comparison.onlyActual) {
            why.append("\n  ").append(t).append(": run by odrust, not in the Surefire reports");
        }
        if (module.settings.isolatesClasses()) {
            why.append(
                    "\n  note: mvn test runs each class in its own JVM here (reuseForks=false); odrust ran them in one,"
                            + " so a test polluted by another class can differ.");
        }
        why.append("\n  details: ").append(file);
        if (failOnMismatch) {
            throw new MojoFailureException(why.toString());
        }
        getLog().error(why.toString());
    }

    /** Reports older than the compiled tests come from an earlier build and would compare the wrong run. */
    private void warnIfStale(File reports, File testClasses) {
        long newestClass = newest(testClasses, ".class");
        File[] xml = reports.listFiles((d, n) -> n.startsWith("TEST-") && n.endsWith(".xml"));
        long oldestReport = Long.MAX_VALUE;
        for (File f : xml == null ? new File[0] : xml) {
            oldestReport = Math.min(oldestReport, f.lastModified());
        }
        if (oldestReport != Long.MAX_VALUE && oldestReport < newestClass) {
            getLog().warn("some Surefire reports in " + reports
                    + " are older than the compiled tests: they may come from an"
                    + " earlier build. Run `mvn test odrust:fidelity` so both sides see the same code.");
        }
    }

    private static long newest(File dir, String suffix) {
        long newest = 0;
        File[] files = dir == null ? null : dir.listFiles();
        for (File f : files == null ? new File[0] : files) {
            newest = Math.max(
                    newest, f.isDirectory() ? newest(f, suffix) : f.getName().endsWith(suffix) ? f.lastModified() : 0);
        }
        return newest;
    }
}
