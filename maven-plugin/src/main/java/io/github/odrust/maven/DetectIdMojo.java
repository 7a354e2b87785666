package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.detect.ReactorSummary;
import io.github.odrust.maven.idtests.IdDetector;
import io.github.odrust.maven.idtests.Shuffle;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Finds implementation-dependent tests (docs/id-tests.md): runs the module's tests in their
 * original order with JDK methods whose order is unspecified (HashMap and HashSet iteration,
 * {@code Class.getDeclaredFields}, {@code File.list}, ...) returning a seeded permutation of what
 * they may legally return, under several seeds and clean; a test that passes clean and fails under
 * a seed is pinned to the one shuffled call that makes it fail. Writes
 * {@code target/odrust/id/report.json}, {@code report.html} and a Surefire-style XML report.
 */
@Mojo(name = "detect-id", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class DetectIdMojo extends AbstractOdrustMojo {
    /** How many shuffle seeds: seeds S, S+1, ... from {@code odrust.seed} (printed). */
    @Parameter(property = "odrust.id.seeds", defaultValue = "4")
    protected int seeds;

    /** The first seed; a new one (printed) when not given, the recorded one when resuming. */
    @Parameter(property = "odrust.seed")
    protected Long seed;

    /** Clean runs (nothing shuffled) of the original order; a test failing in one is not an ID test. */
    @Parameter(property = "odrust.id.cleanRuns", defaultValue = "1")
    protected int cleanRuns;

    /** Test runs one candidate's isolation and bisection may spend; the engine's default when unset. */
    @Parameter(property = "odrust.id.budget")
    protected Integer budget;

    /**
     * Whose calls are shuffled: {@code project} (default), calls whose first caller outside the JDK
     * (and assertion libraries) is the module's own code; {@code any}, calls from any code.
     */
    @Parameter(property = "odrust.id.filter", defaultValue = "project")
    protected String idFilter;

    /** Comma-separated class-name prefixes whose calls count as the module's own, e.g. com.acme.lib. */
    @Parameter(property = "odrust.id.include")
    protected String idInclude;

    /**
     * Where a candidate's runs alone go: {@code classloader} (default), shared JVMs with fresh
     * class loaders, each pin they find run again in a fresh JVM before it is reported;
     * {@code fresh}, a fresh JVM each (docs/id-tests.md, step 5: the same verdicts on the six ID
     * modules measured, 0.73-0.99 of the time).
     */
    @Parameter(property = "odrust.id.isolation", defaultValue = "classloader")
    protected String idIsolation;

    /** Fail the build when an implementation-dependent test is found. */
    @Parameter(property = "odrust.failOnFlaky", defaultValue = "false")
    protected boolean failOnFlaky;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (seeds < 1 || seeds > 1000) {
            throw new MojoFailureException("odrust.id.seeds must be from 1 to 1000 (got " + seeds
                    + "): how many shuffle seeds to" + " run the tests under, e.g. -Dodrust.id.seeds=4");
        }
        if (seed != null && (seed < 0 || seed > Long.MAX_VALUE - seeds)) {
            throw new MojoFailureException(
                    "odrust.seed=" + seed + " cannot start odrust:detect-id's seeds: give a whole number"
                            + " from 0, e.g. -Dodrust.seed=42 (the seeds are 42, 43, ...)");
        }
        if (cleanRuns < 1) {
            throw new MojoFailureException("odrust.id.cleanRuns must be 1 or more (got " + cleanRuns
                    + "): a test is ID only if" + " it passes when nothing is shuffled");
        }
        if (budget != null && budget < 2) {
            throw new MojoFailureException("odrust.id.budget must be at least 2 test runs (got " + budget + ")");
        }
        String isolation = idIsolation == null ? "classloader" : idIsolation.trim();
        if (!isolation.equals("classloader") && !isolation.equals("fresh")) {
            throw new MojoFailureException("odrust.id.isolation=" + idIsolation + " is not known: use"
                    + " classloader (runs alone in shared JVMs, each pin confirmed in a fresh one; the default)"
                    + " or fresh (every run in its own JVM), e.g. -Dodrust.id.isolation=fresh");
        }
        IdDetector.Settings s = new IdDetector.Settings();
        s.shared = isolation.equals("classloader");
        s.filter = Shuffle.Filter.of(idFilter, idInclude);
        s.seedCount = seeds;
        s.cleanRuns = cleanRuns;
        s.budget = budget;
        Path out = outputDirectory.toPath();
        JsonObject saved = IdDetector.savedSettings(out);
        s.seed = seed != null
                ? seed
                : saved != null && saved.has("seed")
                        ? saved.get("seed").getAsLong()
                        : ThreadLocalRandom.current().nextLong(1, 1_000_000_000L);
        Engine engine = engine();
        TestModule module = testModule();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        Discovery.writeSuite(suite, out);
        String reproduce = "mvn " + invocation("run-order") + " -Dodrust.order='{test}' -Dodrust.id.seed={seed}"
                + " -Dodrust.id.only={only}" + (s.filter.any ? " -Dodrust.id.filter=any" : "")
                + (s.filter.include.isEmpty() ? "" : " -Dodrust.id.include=" + String.join(",", s.filter.include));
        JsonObject report = new IdDetector(engine, module, suite, out, s, getLog()).run(reproduce);
        int id = 0;
        for (JsonElement t : report.getAsJsonObject("outcome").getAsJsonArray("tests")) {
            if ("id".equals(t.getAsJsonObject().get("status").getAsString())) {
                id++;
            }
        }
        if (!s.filter.any) {
            getLog().info("Only calls made by the module's own code were shuffled; an order a library decides (a JSON"
                    + " serializer reading fields or iterating a map) is shuffled too with -Dodrust.id.filter=any"
                    + " (or -Dodrust.id.include=<its package>).");
        }
        ReactorSummary.add(
                session,
                project,
                module.id(),
                "detect-id: " + Words.count(id, "implementation-dependent test"),
                getLog());
        if (failOnFlaky && id > 0) {
            throw new MojoFailureException(module.id() + ": " + Words.count(id, "implementation-dependent test")
                    + " found; see " + out.resolve("id").resolve("report.html"));
        }
    }
}
