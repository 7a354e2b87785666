package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * One detection run of a module, from discovery to the report: discovers the suite, opens (or
 * resumes) the history, lets the {@link Detector} run the engine's experiments, then writes
 * {@code report.json}, {@code report.html} and the Surefire-style XML and prints the summary.
 */
public final class Detection {
    /**
     * What a goal does once the suite and the history are known, before the first experiment
     * (odrust:minimize checks the test it was asked to explain).
     */
    public interface Preparation {
        void prepare(Engine engine, DetectConfig config, DiscoveredSuite suite, ExperimentLog history)
                throws MojoFailureException;

        /**
         * The part of the discovered suite to detect over (odrust:incremental: the test classes a
         * change can affect); the whole suite by default. A suite without classes ends the run.
         */
        default DiscoveredSuite narrow(Engine engine, DiscoveredSuite suite)
                throws MojoExecutionException, MojoFailureException {
            return suite;
        }

        /**
         * Whether the run has nothing to do, known before discovery starts a test JVM
         * (odrust:incremental: nothing changed since the saved state); false by default.
         */
        default boolean nothingToRun(Engine engine) throws MojoExecutionException, MojoFailureException {
            return false;
        }
    }

    private final Engine engine;
    private final TestModule module;
    private final Path out;
    private final Log log;
    private int forks = 1;
    private boolean isolate = true;

    private boolean classloader;

    /** Runs the rounds in shared JVMs once the module passed the check (see {@link Detector#classloaderIsolation}). */
    public Detection classloaderIsolation(boolean on) {
        this.classloader = on;
        return this;
    }

    /** Runs up to {@code forks} experiments at once (see {@link Detector#forks}). */
    public Detection forks(int forks, boolean isolate) {
        this.forks = forks;
        this.isolate = isolate;
        return this;
    }

    /** @param out the odrust output directory ({@code target/odrust}) */
    public Detection(Engine engine, TestModule module, Path out, Log log) {
        this.engine = engine;
        this.module = module;
        this.out = out;
        this.log = log;
    }

    /**
     * Runs detection to the end (or its time budget) and returns the report, or null when the
     * module has no tests (logged).
     *
     * @param saved the {@code run.json} of the run to resume, or null for a new run
     * @param basedir the module's directory: order paths in the report are relative to it
     * @param reproduceGoal how to invoke odrust's reproduce goal on this project
     */
    public Report run(
            DetectConfig config,
            DetectDirectory directory,
            JsonObject saved,
            long budgetMillis,
            Path basedir,
            String reproduceGoal,
            Preparation preparation)
            throws MojoExecutionException, MojoFailureException {
        if (preparation.nothingToRun(engine)) {
            return null;
        }
        DiscoveredSuite suite;
        try {
            suite = Discovery.discover(module, out.resolve("discovery"), log);
        } catch (Discovery.NoTestsException e) {
            log.info("odrust detect: skipping " + module.id() + ": no tests (" + e.getMessage() + ")");
            return null;
        }
        suite = preparation.narrow(engine, suite);
        if (suite.classes.isEmpty()) {
            return null;
        }
        Discovery.writeSuite(suite, out);

        // The engine checks every setting (an unknown strategy, a bad k, ...) before anything on
        // disk changes: a typo never costs the previous run's evidence.
        DetectRequest check = new DetectRequest();
        check.config = config.toRequest();
        check.suite = suite.wire();
        engine.call("detect_next", check);
        ExperimentLog history = directory.history(config, saved, suite, log);
        preparation.prepare(engine, config, suite, history);
        int tests = Discovery.originalOrder(suite).size();
        log.info("odrust detect: " + module.id() + ", " + io.github.odrust.maven.core.Words.count(tests, "test")
                + Discovery.countNote(suite)
                + ", strategy "
                + config.strategy + ", "
                + (config.rounds == Integer.MAX_VALUE
                        ? "the whole schedule"
                        : io.github.odrust.maven.core.Words.count(config.rounds, "round"))
                + ", seed=" + config.seed
                + " (the same run again: -Dodrust.seed=" + config.seed + ")"
                + (config.shard != null ? ", shard " + config.shard + " of the plan's rounds" : "")
                + (forks > 1
                        ? ", " + forks + " forks" + (isolate ? ", each experiment in its own working directory" : "")
                        : "")
                + (classloader
                        ? ", rounds in shared JVMs with fresh class loaders once checked (odrust.isolation=classloader)"
                        : ""));

        Report report;
        try {
            ReportWriter.Context context =
                    new ReportWriter.Context(module.id(), basedir, out, reproduceGoal, engine.version());
            if (saved != null) {
                // a run that goes on (odrust:minimize, -Dodrust.resume) keeps odrust:diagnose's verdicts
                context.keepingDiagnoses(out.resolve("report.json"));
            }
            JsonObject summary = new Detector(module, engine, suite, config, history, out, budgetMillis, log)
                    .forks(forks, isolate)
                    .classloaderIsolation(classloader)
                    .reportingWith((partial, complete) -> ReportWriter.write(engine, partial, context, complete, out))
                    .run();
            report = Report.of(ReportWriter.write(engine, summary, context, true, out));
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "odrust detect could not write its results under " + out + ": " + e.getMessage(), e);
        }
        ConsoleReport.print(report, out, log);
        return report;
    }
}
