package io.github.odrust.maven;

import io.github.odrust.engine.Engine;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.explain.MinimizeTargets;
import io.github.odrust.maven.run.DiscoveredSuite;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Explains one order-dependent test found by an earlier {@code odrust:detect}: its polluters and
 * cleaners (victim) or state-setters (brittle), and its flake rate. Continues the recorded
 * detection run, so nothing already run is run again, and rewrites the report.
 */
@Mojo(name = "minimize", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class MinimizeMojo extends DetectMojo {
    /** The order-dependent test to explain, e.g. com.acme.CartTest#isEmpty. */
    @Parameter(property = "odrust.test")
    protected String test;

    @Override
    protected boolean resuming() {
        return true;
    }

    @Override
    protected void configure(DetectConfig config) throws MojoFailureException {
        MinimizeTargets.configure(config, test);
    }

    @Override
    protected void prepare(Engine engine, DetectConfig config, DiscoveredSuite suite, ExperimentLog history)
            throws MojoFailureException {
        MinimizeTargets.prepare(engine, config, suite, history);
    }
}
