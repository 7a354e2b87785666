package io.github.odrust.maven;

import io.github.odrust.maven.detect.DetectConfig;
import java.util.List;
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
        if (test == null || test.trim().isEmpty()) {
            throw new MojoFailureException("name the test to explain: -Dodrust.test=pkg.Class#method (a victim or brittle"
                    + " listed in target/odrust/report.json by odrust:detect)");
        }
        config.minimize = true;
        config.minimizeOnly = List.of(test.trim());
    }
}
