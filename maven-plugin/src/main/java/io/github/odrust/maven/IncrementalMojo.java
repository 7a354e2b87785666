package io.github.odrust.maven;

import io.github.odrust.engine.Engine;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.incremental.Selection;
import io.github.odrust.maven.run.DiscoveredSuite;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * odrust:detect over only the test classes a change can affect (docs/incremental.md): compares
 * the module's class files with the state saved by the last run, selects the test classes that
 * reach a changed class (and those sharing mutable static state with them), runs detection over
 * them with every detect setting, and saves the new state. The first run (no state) is a full run.
 */
@Mojo(name = "incremental", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class IncrementalMojo extends DetectMojo {
    /** Where the state between runs is kept (a CI cache can keep it); target/odrust/incremental/state.json by default. */
    @Parameter(property = "odrust.incremental.state")
    protected String state;

    /** Select every test class (the safe switch: what the analysis cannot see, it cannot miss). */
    @Parameter(property = "odrust.incremental.selectAll", defaultValue = "false")
    protected boolean selectAll;

    /** The strategy that stresses new and changed tests first. */
    private static final String TARGETED = "targeted";

    private Selection selection;
    private String fingerprint;
    private DetectConfig config;

    @Override
    protected void configure(DetectConfig config) throws MojoFailureException {
        super.configure(config);
        this.config = config;
    }

    /**
     * Nothing changed since the saved state (the same classes, jars and build): nothing can be
     * affected, whatever the test classes are, so the run ends before discovery's test JVM.
     */
    @Override
    protected boolean nothingToRun(Engine engine) throws MojoExecutionException, MojoFailureException {
        selection = selection(engine);
        return selection.unchanged(fingerprint());
    }

    @Override
    protected DiscoveredSuite narrow(Engine engine, DiscoveredSuite suite)
            throws MojoExecutionException, MojoFailureException {
        DiscoveredSuite narrowed = selection(engine).narrow(suite, fingerprint());
        // new and changed test classes are stressed first (targeted orders; docs/incremental.md)
        if (config != null) {
            config.newClasses = selection.newTestClasses(narrowed);
            if (!config.newClasses.isEmpty()) {
                getLog().info("odrust incremental: "
                        + (TARGETED.equals(config.strategy)
                                ? "the targeted rounds put their tests right after and right before each test they"
                                        + " share a static field with (as the baseline records) before any other pair; the plan line says how many"
                                : "strategy " + config.strategy + " does not run them first; the default, " + TARGETED
                                        + ", does"));
            }
        }
        return narrowed;
    }

    private Selection selection(Engine engine) throws MojoFailureException {
        if (selection != null) {
            return selection;
        }
        Path dir = outputDirectory.toPath().resolve("incremental");
        // a relative path is the module's, like every other odrust path
        Path file = state == null || state.isBlank()
                ? dir.resolve("state.json")
                : project.getBasedir().toPath().resolve(state).toAbsolutePath().normalize();
        if (java.nio.file.Files.isDirectory(file)) {
            throw new MojoFailureException("odrust.incremental.state=" + state
                    + " is a directory; give a file path, e.g. " + file.resolve("state.json"));
        }
        try {
            selection = new Selection(engine, module, file, dir, selectAll, getLog())
                    .withBuildParts(Selection.buildParts(
                            module,
                            project.getBasedir().toPath(),
                            session.getLocalRepository() == null
                                    ? null
                                    : session.getLocalRepository().getBasedir()));
        } catch (MojoExecutionException e) {
            throw new MojoFailureException(e.getMessage(), e);
        }
        return selection;
    }

    private String fingerprint() throws MojoExecutionException {
        if (fingerprint == null) {
            fingerprint = Selection.buildFingerprint(
                    module,
                    project.getBasedir().toPath(),
                    session.getLocalRepository() == null
                            ? null
                            : session.getLocalRepository().getBasedir());
        }
        return fingerprint;
    }

    @Override
    protected void finished(Report report) throws MojoExecutionException {
        if (selection != null && (report != null || selection.nothingSelected())) {
            selection.save();
        }
    }

    @Override
    protected String skippedLine() {
        return selection != null && selection.nothingSelected()
                ? "no test class affected by the change, skipped"
                : super.skippedLine();
    }
}
