package io.github.odrust.maven;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.Vocabulary;
import io.github.odrust.maven.core.ListSetting;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.detect.ConsoleReport;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.DetectDirectory;
import io.github.odrust.maven.detect.Detection;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.KnownFlaky;
import io.github.odrust.maven.detect.ReactorSummary;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.run.DiscoveredSuite;
import java.io.File;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Finds order-dependent tests: runs the module's tests in many orders chosen by the engine,
 * confirms every difference, classifies each order-dependent test (victim, brittle) or reports it
 * as non-order flaky, and writes {@code target/odrust/report.json}, {@code report.html} and
 * Surefire-style XML. Every experiment is recorded as it finishes; {@code -Dodrust.resume=true}
 * continues a run that was killed.
 */
@Mojo(name = "detect", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class DetectMojo extends AbstractCiMojo {
    /**
     * How orders are chosen: targeted (default: orders that put each test that wrote a static field
     * right before each test that read it, from the baseline's recording, then reverse-passing
     * rounds), reverse-passing, original, reverse, reverse-class, random-class, random-class-method;
     * systematic: tuscan, pairs-all, k-bounded, dependence-aware. On resume, the recorded run's.
     */
    @Parameter(property = "odrust.strategy")
    protected String strategy;

    /**
     * How many orders (rounds) to run after the baseline: 20 (the whole schedule for tuscan,
     * pairs-all, k-bounded and dependence-aware), or on resume the recorded run's.
     */
    @Parameter(property = "odrust.rounds")
    protected Integer rounds;

    /** For -Dodrust.strategy=k-bounded: the length of the test tuples (1, 2 or 3): 2, or on resume the recorded run's. */
    @Parameter(property = "odrust.k")
    protected Integer k;

    /** The seed of every random choice; a new one (printed) when not given. */
    @Parameter(property = "odrust.seed")
    protected Long seed;

    /** Stop starting new rounds after this long (e.g. 90s, 10m, 1h30m); confirmations still finish. */
    @Parameter(property = "odrust.timeBudget")
    protected String timeBudget;

    /** Continue the run recorded in target/odrust/detect/ instead of starting anew. */
    @Parameter(property = "odrust.resume", defaultValue = "false")
    protected boolean resume;

    /** How often the original order is tried before tests that keep failing are set aside: 3, or the recorded run's. */
    @Parameter(property = "odrust.baselineTries")
    protected Integer baselineTries;

    /** How often each order-dependent test runs alone to tell victims from brittles: 3 (the engine's default), or the recorded run's. */
    @Parameter(property = "odrust.aloneRuns")
    protected Integer aloneRuns;

    /** Find polluters, cleaners and state-setters of each order-dependent test, and its flake rate. */
    @Parameter(property = "odrust.minimize", defaultValue = "true")
    protected boolean minimize;

    /**
     * At most this many experiments to explain the run's order-dependent tests, pooled (default:
     * the engine's, 60 per test to explain). Every test gets its first polluter or state-setter
     * before unrelated tests get more, and all their polluters before any gets cleaners.
     */
    @Parameter(property = "odrust.minimize.budget")
    protected Integer minimizeBudget;

    /** Fail the build when an order-dependent test is found that the known-flaky file does not list. */
    @Parameter(property = "odrust.failOnFlaky", defaultValue = "false")
    protected boolean failOnFlaky;

    /** Tests already known to be order-dependent (one id per line, # comments), not failing the build. */
    @Parameter(property = "odrust.knownFlaky", defaultValue = "${project.basedir}/odrust-known-flaky.txt")
    protected File knownFlaky;

    /**
     * For targeted (the default) and dependence-aware: static fields (comma-separated, {@code pkg.Class#FIELD},
     * {@code *} matches any text) that never make two tests dependent, e.g. loggers or counters.
     */
    @Parameter(property = "odrust.dependence.free")
    protected String dependenceFree;

    /**
     * The old name of odrust.dependence.free, still read (with a warning) when that is not given.
     *
     * @deprecated use odrust.dependence.free
     */
    @Deprecated
    @Parameter(property = "odrust.dependenceFree")
    protected String deprecatedDependenceFree;

    /**
     * For targeted (the default) and dependence-aware: classes to record besides the module's own
     * (comma-separated package or class name prefixes, e.g. a library holding shared state).
     */
    @Parameter(property = "odrust.dependence.include")
    protected String dependenceInclude;

    /**
     * Plan from the baseline's recorded times: systematic strategies run first the orders
     * covering the most pairs per predicted millisecond, and explanations cut the sets they
     * group test where the search is expected to cost least and ask their slowest tests alone.
     * On by default with a time budget.
     */
    @Parameter(property = "odrust.costAware")
    protected Boolean costAware;

    /**
     * How many experiments run at once, each in its own test JVM (docs/forks.md). The plan and the
     * report do not depend on it. Default 1.
     */
    @Parameter(property = "odrust.forks", defaultValue = "1")
    protected int forks;

    /**
     * With more than one fork: each experiment runs in a working directory of its own that links
     * to the module's files, with a {@code java.io.tmpdir} of its own. {@code false}: every fork
     * runs in Surefire's working directory, as Surefire's own forks do.
     */
    @Parameter(property = "odrust.forks.isolate", defaultValue = "true")
    protected boolean isolateForks;

    /**
     * {@code K/N}: run shard K of N of the plan, e.g. one CI machine of N (docs/shards.md); the
     * plan's rounds are dealt out, round r to shard (r - 1) mod N + 1. Every shard needs the same
     * seed.
     */
    @Parameter(property = "odrust.shard")
    protected String shard;

    /**
     * How rounds are isolated from each other (docs/isolation.md): {@code jvm} (default), a fresh
     * test JVM per order; {@code classloader}, orders one after the other in a shared JVM, each in
     * fresh class loaders with the JDK state tests touch restored, once a check showed that the
     * module's outcomes are the same there. Findings are always confirmed in fresh JVMs.
     */
    @Parameter(property = "odrust.isolation", defaultValue = "jvm")
    protected String isolation;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (forks < 1) {
            throw new MojoFailureException(
                    "odrust.forks must be 1 or more (got " + forks + "): the number of experiments"
                            + " that run at once, each in its own JVM; for example -Dodrust.forks=2 on a machine with 2 cores");
        }
        if (!"jvm".equals(isolation) && !"classloader".equals(isolation)) {
            throw new MojoFailureException(
                    "odrust.isolation=" + isolation + " is not an isolation: use jvm (a fresh test JVM per"
                            + " order, the default) or classloader (orders in a shared JVM, each in fresh class loaders; docs/isolation.md)");
        }
        CiSettings ci = ciSettings();
        long budget = DetectConfig.timeBudget(timeBudget);
        Path out = outputDirectory.toPath();
        DetectDirectory directory = new DetectDirectory(out);
        // On resume, every setting not given again comes from the recorded run.
        JsonObject saved = resuming() ? directory.savedRun() : null;
        Engine engine = engine();
        Vocabulary vocabulary = engine.call("vocabulary", new JsonObject(), Vocabulary.class);
        DetectConfig config = DetectConfig.resolve(
                given(), saved == null ? null : saved.getAsJsonObject("config"), budget, vocabulary);
        configure(config);
        config.check();
        if (config.shard != null && seed == null && saved == null) {
            throw new MojoFailureException(
                    "odrust.shard=" + config.shard + " needs -Dodrust.seed: every shard must run the"
                            + " same plan, so give all of them the same seed (e.g. -Dodrust.seed=$GITHUB_RUN_ID)");
        }

        TestModule module = testModule();
        this.module = module;
        Detection.Preparation preparation = new Detection.Preparation() {
            @Override
            public void prepare(Engine e, DetectConfig c, DiscoveredSuite suite, ExperimentLog history)
                    throws MojoFailureException {
                DetectMojo.this.prepare(e, c, suite, history);
            }

            @Override
            public DiscoveredSuite narrow(Engine e, DiscoveredSuite suite)
                    throws MojoExecutionException, MojoFailureException {
                return DetectMojo.this.narrow(e, suite);
            }

            @Override
            public boolean nothingToRun(Engine e) throws MojoExecutionException, MojoFailureException {
                return DetectMojo.this.nothingToRun(e);
            }
        };
        Report report = new Detection(engine, module, out, getLog())
                .forks(forks, isolateForks)
                .classloaderIsolation("classloader".equals(isolation))
                .run(
                        config,
                        directory,
                        saved,
                        budget,
                        project.getBasedir().toPath(),
                        invocation("reproduce"),
                        preparation);
        ReactorSummary.add(
                session,
                project,
                module.id(),
                report == null ? skippedLine() : ConsoleReport.moduleLine(report),
                getLog());
        io.github.odrust.maven.history.RunRecords records = runRecords();
        // minimize continues an earlier run (already recorded): its findings are no new sighting
        if (report != null && records != null && !"minimize".equals(mojoExecution.getGoal())) {
            JsonObject record = records.start(mojoExecution.getGoal(), module.id());
            io.github.odrust.maven.history.RunRecords.fromReport(record, report.json, out.resolve("suite.json"));
            records.append(record, getLog());
        }
        if (report != null) {
            io.github.odrust.maven.history.Quarantine.Verdict q =
                    afterReport(engine, report, out, ci, quarantine, history);
            if (failOnFlaky) {
                KnownFlaky.failIfUnlisted(report, knownFlaky, q);
            }
        }
        // after the flaky check: a build it fails keeps the old incremental state, so the next
        // run selects the same tests again instead of passing on "nothing changed"
        finished(report);
    }

    /**
     * The value of a renamed property: the one given under its new name, else the one given under
     * its deprecated old name, with a warning whenever the old name is used.
     */
    static String renamed(String value, String name, String oldValue, String oldName, Log log) {
        if (oldValue == null) {
            return value;
        }
        log.warn(oldName + " is deprecated; use " + name);
        if (value != null) {
            log.warn(oldName + " is ignored: " + name + " is given too");
            return value;
        }
        return oldValue;
    }

    private DetectConfig.Given given() throws MojoFailureException {
        DetectConfig.Given given = new DetectConfig.Given();
        given.strategy = strategy;
        given.rounds = rounds;
        given.k = k;
        given.seed = seed;
        given.baselineTries = baselineTries;
        given.aloneRuns = aloneRuns;
        given.minimize = minimize;
        given.minimizeBudget = minimizeBudget;
        given.dependenceFree = renamed(
                dependenceFree, "odrust.dependence.free", deprecatedDependenceFree, "odrust.dependenceFree", getLog());
        given.dependenceInclude = dependenceInclude;
        // Checked here: the engine would take a malformed entry as a pattern that matches nothing.
        ListSetting.fieldPatterns("odrust.dependence.free", given.dependenceFree);
        ListSetting.classPrefixes("odrust.dependence.include", given.dependenceInclude);
        given.costAware = costAware;
        given.shard = shard;
        return given;
    }

    /** Whether to continue the recorded run rather than start a new one. */
    protected boolean resuming() {
        return resume;
    }

    /** Lets a goal built on detection adjust the configuration (odrust:minimize names one test). */
    protected void configure(DetectConfig config) throws MojoFailureException {}

    /** Lets a goal built on detection check the suite and history before the first experiment. */
    protected void prepare(Engine engine, DetectConfig config, DiscoveredSuite suite, ExperimentLog history)
            throws MojoFailureException {}

    /** The module being detected (set before discovery), for goals built on detection. */
    protected TestModule module;

    /** Lets a goal built on detection detect over part of the suite (odrust:incremental). */
    protected DiscoveredSuite narrow(Engine engine, DiscoveredSuite suite)
            throws MojoExecutionException, MojoFailureException {
        return suite;
    }

    /** Lets a goal built on detection end before discovery when it knows there is nothing to run. */
    protected boolean nothingToRun(Engine engine) throws MojoExecutionException, MojoFailureException {
        return false;
    }

    /** Called when detection ended and the build did not fail (report null: nothing ran). */
    protected void finished(Report report) throws MojoExecutionException {}

    /** The reactor summary's line for a module where detection ran nothing. */
    protected String skippedLine() {
        return "no tests, skipped";
    }
}
