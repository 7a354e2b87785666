package io.github.odrust.maven;

import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineException;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.maven.core.OutputLock;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.UnknownSettings;
import io.github.odrust.maven.surefire.SurefireSettings;
import io.github.odrust.maven.surefire.SurefireSettingsReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.BuildPluginManager;
import org.apache.maven.plugin.MavenPluginManager;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.ToolchainManager;
import org.eclipse.aether.RepositorySystem;

/**
 * What every odrust goal shares: skipping, loading the engine, reading the module's Surefire
 * configuration. Subclasses implement {@link #executeMojo()}; engine errors about the user's input
 * become build failures with the engine's message, never a bare stack trace.
 */
public abstract class AbstractOdrustMojo extends AbstractMojo {
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /**
     * The project as the lifecycle fork of a goal with {@code @Execute} left it: properties that
     * plugins set there (JaCoCo's {@code argLine}) are only on this copy. Null without a fork.
     */
    @Parameter(defaultValue = "${executedProject}", readonly = true)
    protected MavenProject executedProject;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    protected MavenSession session;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    protected PluginDescriptor plugin;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    protected MojoExecution mojoExecution;

    /** Skip odrust entirely. */
    @Parameter(property = "odrust.skip", defaultValue = "false")
    protected boolean skip;

    /** A native engine library to load instead of the one bundled in the plugin (for odrust development). */
    @Parameter(property = "odrust.engine.library")
    protected File engineLibrary;

    /** Seconds one test JVM may run before it and its child processes are killed. */
    @Parameter(property = "odrust.timeout", defaultValue = "600")
    protected int timeout;

    /** Where odrust writes everything it produces. */
    @Parameter(property = "odrust.outputDirectory", defaultValue = "${project.build.directory}/odrust")
    protected File outputDirectory;

    @Component
    protected BuildPluginManager buildPluginManager;

    @Component
    protected MavenPluginManager mavenPluginManager;

    @Component
    protected RepositorySystem repositorySystem;

    @Component
    protected ToolchainManager toolchainManager;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("odrust is skipped (odrust.skip=true)");
            return;
        }
        if ("pom".equals(project.getPackaging())) {
            getLog().info("odrust: skipping " + project.getArtifactId() + ": packaging pom has no tests of its own");
            return;
        }
        if (timeout <= 0) {
            throw new MojoFailureException("odrust.timeout must be a positive number of seconds, not " + timeout);
        }
        refuseUnknownSettings();
        try (OutputLock tests = testsLock();
                OutputLock lock = lock()) {
            executeMojo();
        } catch (IOException e) {
            throw new MojoExecutionException("odrust could not take or release its lock " + e.getMessage(), e);
        } catch (EngineException e) {
            String message = "odrust: " + e.getMessage();
            if (e.isUserError()) {
                throw new MojoFailureException(message, e);
            }
            throw new MojoExecutionException(message, e);
        }
    }

    protected abstract void executeMojo() throws MojoExecutionException, MojoFailureException;

    /**
     * Whether this goal starts test JVMs in the module, and so holds the module's tests lock while it runs
     * (a goal that only reads or merges odrust's files does not).
     */
    protected boolean runsTests() {
        return true;
    }

    /** Refuses {@code -Dodrust.*} properties and {@code <configuration>} keys no goal knows. */
    private void refuseUnknownSettings() throws MojoFailureException {
        UnknownSettings.Known known = UnknownSettings.Known.of(plugin);
        List<String> problems = new ArrayList<>(
                UnknownSettings.properties(known, session.getUserProperties(), project.getProperties()));
        problems.addAll(UnknownSettings.configuration(
                known,
                UnknownSettings.declared(project.getBuildPlugins(), plugin.getGroupId(), plugin.getArtifactId())));
        if (!problems.isEmpty()) {
            throw new MojoFailureException("odrust: " + UnknownSettings.text(problems));
        }
    }

    /** One run per output directory: this goal's lock on it (docs/configuration.md, "One run at a time"). */
    private OutputLock lock() throws IOException, MojoFailureException {
        return taken(
                () -> OutputLock.take(outputDirectory.toPath(), "odrust:" + mojoExecution.getGoal(), getLog()::warn));
    }

    /** One run of test JVMs per module: this goal's lock on the module's build directory, or null. */
    private OutputLock testsLock() throws IOException, MojoFailureException {
        if (!runsTests()) {
            return null;
        }
        return taken(() -> OutputLock.takeTests(
                Path.of(project.getBuild().getDirectory()), "odrust:" + mojoExecution.getGoal(), getLog()::warn));
    }

    /** Taking one of the locks. */
    private interface Taking {
        OutputLock take() throws IOException, OutputLock.HeldException;
    }

    /** The lock {@code taking} takes; a lock another run holds fails the build naming that run. */
    private static OutputLock taken(Taking taking) throws IOException, MojoFailureException {
        try {
            return taking.take();
        } catch (OutputLock.HeldException e) {
            throw new MojoFailureException("odrust: " + e.getMessage());
        }
    }

    protected Engine engine() {
        String advice = EngineLoader.nativeAccessAdvice();
        if (advice != null && !EngineLoader.isLoaded()) {
            getLog().info(advice);
        }
        return EngineLoader.load(engineLibrary, plugin.getVersion());
    }

    /** The module's tests as Surefire would run them. */
    protected TestModule testModule() throws MojoExecutionException {
        // Evaluate Surefire's configuration where `mvn test` would: after the plugins that ran before it.
        MavenProject built = executedProject != null ? executedProject : project;
        SurefireSettings settings =
                new SurefireSettingsReader(buildPluginManager, mavenPluginManager, session).read(built);
        if (!settings.reuseForks) {
            getLog().warn(
                            "mvn test here runs every test class in its own JVM (forkCount=" + settings.forkCount
                                    + ", reuseForks=false);"
                                    + " odrust runs each order in ONE JVM. So odrust's original order is not what mvn test runs: a test can fail"
                                    + " here that passes under mvn test (another class polluted it), and an order-dependence between classes"
                                    + " only bites where classes share a JVM (an IDE, or reuseForks=true). Use odrust:fidelity to see the difference.");
        } else if (!"1".equals(settings.forkCount.trim())) {
            getLog().info("note: mvn test here spreads test classes over several JVMs (forkCount=" + settings.forkCount
                    + "); odrust runs each order in one JVM, exactly as asked.");
        }
        if (settings.groups != null || settings.excludedGroups != null) {
            getLog().info("Surefire's groups/excludedGroups are honoured: tests are discovered with "
                    + (settings.groups == null ? "" : "groups=" + settings.groups)
                    + (settings.groups != null && settings.excludedGroups != null ? ", " : "")
                    + (settings.excludedGroups == null ? "" : "excludedGroups=" + settings.excludedGroups)
                    + " (JUnit 5 tags, JUnit 4 categories).");
        }
        Artifact agent = plugin.getArtifactMap().get("io.github.odrust:odrust-jvm-agent");
        if (agent == null || agent.getFile() == null) {
            throw new MojoExecutionException(
                    "the odrust plugin is incomplete: its odrust-jvm-agent artifact is missing");
        }
        TestModule.Resolver resolver = new TestModule.Resolver(
                repositorySystem, session.getRepositorySession(), project.getRemoteProjectRepositories());
        return TestModule.create(
                project,
                built.getProperties(),
                settings,
                resolver,
                toolchainManager.getToolchainFromBuildContext("jdk", session),
                agent.getFile(),
                timeout,
                getLog());
    }

    /**
     * The run records of {@code -Dodrust.history=value} (relative to where Maven ran), or null when
     * it is not given; {@code commit}: {@code -Dodrust.history.commit}.
     */
    protected io.github.odrust.maven.history.RunRecords runRecords(String value, String commit) {
        Path dir = io.github.odrust.maven.history.RunRecords.directory(value, executionRoot());
        return dir == null
                ? null
                : new io.github.odrust.maven.history.RunRecords(
                        dir, project.getBasedir().toPath(), commit, java.time.Clock.systemUTC());
    }

    /**
     * The CI settings of a goal that writes a detection report, checked before anything runs:
     * annotations' kind, the day quarantine expiries are checked against, runs before an entry
     * is ready to remove.
     */
    protected static final class CiSettings {
        public String annotations;
        public String today;
        public int removeAfter;

        public static CiSettings of(String annotations, String today, int removeAfter) throws MojoFailureException {
            if (removeAfter < 1) {
                throw new MojoFailureException("odrust.quarantine.removeAfter must be 1 or more, not " + removeAfter);
            }
            CiSettings s = new CiSettings();
            s.annotations = io.github.odrust.maven.history.Annotations.kind(annotations);
            s.today = io.github.odrust.maven.history.Quarantine.today(today);
            s.removeAfter = removeAfter;
            return s;
        }
    }

    /**
     * After a detection report is written in {@code out}: its annotations (when asked), then what
     * the quarantine file ({@code quarantineFile}, relative to the module) says about it, read
     * with the history of {@code history} for entries ready to remove.
     */
    protected io.github.odrust.maven.history.Quarantine.Verdict afterReport(
            Engine engine,
            io.github.odrust.maven.detect.Report report,
            Path out,
            CiSettings ci,
            String quarantineFile,
            String history)
            throws MojoExecutionException {
        if (ci.annotations != null) {
            io.github.odrust.maven.history.Annotations.write(
                    ci.annotations,
                    out,
                    project.getBasedir().toPath(),
                    testSourceRoots(),
                    executionRoot(),
                    System.out,
                    getLog());
        }
        return io.github.odrust.maven.history.Quarantine.check(
                engine,
                io.github.odrust.maven.history.Quarantine.file(
                        quarantineFile, project.getBasedir().toPath()),
                ci.today,
                report,
                io.github.odrust.maven.history.RunRecords.directory(history, executionRoot()),
                report.module,
                ci.removeAfter,
                getLog());
    }

    /** The module's test source roots. */
    protected List<File> testSourceRoots() {
        List<File> roots = new ArrayList<>();
        project.getTestCompileSourceRoots().forEach(r -> roots.add(new File(r)));
        return roots;
    }

    /** The directory Maven ran in (the reactor's root even with -pl), else the module's. */
    protected Path executionRoot() {
        String executionRoot = session == null ? null : session.getExecutionRootDirectory();
        return executionRoot != null
                ? Path.of(executionRoot)
                : project.getBasedir().toPath();
    }

    /**
     * How the user can invoke {@code goal} on this project: {@code odrust:goal} when the plugin is
     * in the POM (so the prefix resolves), else the full coordinates.
     */
    protected String invocation(String goal) {
        boolean declared = project.getBuildPlugins().stream()
                .anyMatch(p -> plugin.getGroupId().equals(p.getGroupId())
                        && plugin.getArtifactId().equals(p.getArtifactId()));
        String userDir = session.getRequest().getBaseDirectory();
        String select = moduleSelector(
                Path.of(userDir != null ? userDir : System.getProperty("user.dir")),
                project.getFile() == null ? null : project.getFile().toPath(),
                session.getProjects().size() > 1);
        return select
                + (declared
                        ? "odrust:" + goal
                        : plugin.getGroupId() + ":" + plugin.getArtifactId() + ":" + plugin.getVersion() + ":" + goal);
    }

    /**
     * {@code -f path/pom.xml } (relative to the user's directory when the module is under it, else
     * absolute) when a plain {@code mvn} there would not run only this module: the user is in another
     * directory (a {@code -f} build) or the build has several modules (it would run in each); else "".
     */
    static String moduleSelector(Path userDir, Path pom, boolean multiModule) {
        if (pom == null) {
            return "";
        }
        Path user = userDir.toAbsolutePath().normalize();
        Path file = pom.toAbsolutePath().normalize();
        boolean here =
                file.getParent().equals(user) && file.getFileName().toString().equals("pom.xml");
        if (here && !multiModule) {
            return "";
        }
        String path = file.startsWith(user) ? user.relativize(file).toString() : file.toString();
        return "-f " + path.replace('\\', '/') + " ";
    }

    /**
     * The Java level the module's (test) sources are compiled at, as its maven-compiler-plugin is
     * configured (release, else source, else target; for tests their test variants first), else
     * the {@code maven.compiler.*} properties; null: the compiler's own. A level from source or
     * target is prefixed {@code source:} (compiled with -source/-target, not --release).
     */
    protected String compilerLevel(boolean test) {
        List<String> keys = test
                ? List.of("testRelease", "release", "testSource", "source", "testTarget", "target")
                : List.of("release", "source", "target");
        org.apache.maven.model.Plugin compiler = project.getBuild() == null
                ? null
                : project.getBuild().getPluginsAsMap().get("org.apache.maven.plugins:maven-compiler-plugin");
        Object config = compiler == null ? null : compiler.getConfiguration();
        for (String key : keys) {
            if (config instanceof org.codehaus.plexus.util.xml.Xpp3Dom) {
                org.codehaus.plexus.util.xml.Xpp3Dom child =
                        ((org.codehaus.plexus.util.xml.Xpp3Dom) config).getChild(key);
                if (child != null
                        && child.getValue() != null
                        && !child.getValue().trim().isEmpty()
                        && !child.getValue().contains("${")) {
                    return (key.toLowerCase(java.util.Locale.ROOT).endsWith("release") ? "" : "source:")
                            + child.getValue().trim();
                }
            }
            String property = project.getProperties().getProperty("maven.compiler." + key);
            if (property != null && !property.trim().isEmpty()) {
                return (key.toLowerCase(java.util.Locale.ROOT).endsWith("release") ? "" : "source:") + property.trim();
            }
        }
        return null;
    }
}
