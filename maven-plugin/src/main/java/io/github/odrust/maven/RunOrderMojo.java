package io.github.odrust.maven;

import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Runs the given tests in exactly the given order in a fresh JVM, with the module's Surefire
 * configuration, and prints one line per test. {@code -Dodrust.order=} is a file with one test id
 * per line, or a comma-separated list of ids.
 */
@Mojo(name = "run-order", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class RunOrderMojo extends AbstractRunOrderMojo {
    @Override
    protected String goal() {
        return "run-order";
    }
}
