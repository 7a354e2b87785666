package io.github.odrust.maven.explain;

import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.run.DiscoveredSuite;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The order-dependent tests odrust:minimize explains: the one it names, a victim or brittle of
 * the recorded run.
 */
public final class MinimizeTargets {
    private MinimizeTargets() {}

    /** Explains {@code test} (the value of {@code -Dodrust.test}) and only it. */
    public static void configure(DetectConfig config, String test) throws MojoFailureException {
        if (test == null || test.trim().isEmpty()) {
            throw new MojoFailureException(
                    "name the test to explain: -Dodrust.test=pkg.Class#method (a victim or brittle"
                            + " listed in target/odrust/report.json by odrust:detect)");
        }
        config.minimize = true;
        config.minimizeOnly = List.of(test.trim());
    }

    /**
     * Checks each test named. Only those are explained; what the recorded run explained of others
     * (minimization records are observations, whatever planned them) is still reported.
     */
    public static void prepare(Engine engine, DetectConfig config, DiscoveredSuite suite, ExperimentLog history)
            throws MojoFailureException {
        check(engine, config, suite, history);
    }

    /** Each test named for minimization must be an order-dependent test of the recorded run. */
    static void check(Engine engine, DetectConfig config, DiscoveredSuite suite, ExperimentLog history)
            throws MojoFailureException {
        if (config.minimizeOnly.isEmpty()) {
            return;
        }
        DetectRequest request = new DetectRequest();
        request.config = config.toRequest();
        request.suite = suite.wire();
        history.history().forEach(r -> request.history.add(ExperimentRecord.of(r)));
        List<String> od = new ArrayList<>();
        for (Summary.FlakyTest f : engine.call("detect_summary", request, Summary.class).flaky) {
            if (f.isOrderDependent()) {
                od.add(f.test);
            }
        }
        for (String t : config.minimizeOnly) {
            if (!od.contains(t)) {
                throw new MojoFailureException("odrust.test=" + t
                        + " is not an order-dependent test of the detection run in" + " target/odrust/detect/; "
                        + (od.isEmpty() ? "that run found none." : "it found: " + String.join(", ", od)));
            }
        }
    }
}
