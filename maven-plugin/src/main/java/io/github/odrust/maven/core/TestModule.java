package io.github.odrust.maven.core;

import io.github.odrust.maven.fork.ArgLine;
import io.github.odrust.maven.fork.TestJvm;
import io.github.odrust.maven.surefire.SurefireSettings;
import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.resolver.filter.ScopeArtifactFilter;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.project.MavenProject;
import org.apache.maven.toolchain.Toolchain;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;

/**
 * One module's tests as Surefire would run them: the test classpath in Surefire's order, the
 * frameworks Surefire's provider would run, and how to start a test JVM (java, argLine,
 * environment, working directory). Everything odrust forks for a module comes from here.
 */
public final class TestModule {
    static final String JUNIT4 = "junit:junit";
    static final String PLATFORM_ENGINE = "org.junit.platform:junit-platform-engine";
    static final String PLATFORM_COMMONS = "org.junit.platform:junit-platform-commons";
    static final String PLATFORM_LAUNCHER = "org.junit.platform:junit-platform-launcher";
    static final String JUPITER_API = "org.junit.jupiter:junit-jupiter-api";
    static final String JUPITER_ENGINE = "org.junit.jupiter:junit-jupiter-engine";
    static final String VINTAGE_ENGINE = "org.junit.vintage:junit-vintage-engine";

    public final MavenProject project;
    public final SurefireSettings settings;
    public final List<File> classpath = new ArrayList<>();
    public final List<String> frameworks = new ArrayList<>();
    public final List<String> notes = new ArrayList<>();
    public final Map<String, String> systemProperties = new LinkedHashMap<>();
    public final TestJvm.Spec jvm = new TestJvm.Spec();
    /** The jvm-agent jar (on the classpath, and the -javaagent of recording runs). */
    public File agentJar;

    private TestModule(MavenProject project, SurefireSettings settings) {
        this.project = project;
        this.settings = settings;
    }

    /** Everything needed to resolve extra JUnit Platform artifacts the way Surefire adds them. */
    public static final class Resolver {
        final RepositorySystem system;
        final RepositorySystemSession session;
        final List<RemoteRepository> repositories;

        public Resolver(RepositorySystem system, RepositorySystemSession session, List<RemoteRepository> repositories) {
            this.system = system;
            this.session = session;
            this.repositories = repositories;
        }

        boolean offline() {
            return session.isOffline();
        }

        File localRepository() {
            return session.getLocalRepository() == null
                    ? null
                    : session.getLocalRepository().getBasedir();
        }

        /**
         * The groupId:artifactId of every runtime dependency of {@code coordinates}, transitively,
         * from the poms (no jar is fetched); null when they cannot be read.
         */
        Set<String> dependencyKeys(String coordinates) {
            try {
                CollectRequest collect =
                        new CollectRequest(new Dependency(new DefaultArtifact(coordinates), "runtime"), repositories);
                Set<String> keys = new LinkedHashSet<>();
                java.util.Deque<org.eclipse.aether.graph.DependencyNode> todo = new java.util.ArrayDeque<>(
                        system.collectDependencies(session, collect).getRoot().getChildren());
                while (!todo.isEmpty()) {
                    org.eclipse.aether.graph.DependencyNode n = todo.pop();
                    keys.add(
                            n.getArtifact().getGroupId() + ":" + n.getArtifact().getArtifactId());
                    todo.addAll(n.getChildren());
                }
                return keys;
            } catch (Exception e) {
                return null;
            }
        }

        /** The jar of {@code coordinates} alone (no dependencies), from the local repository when offline. */
        File resolveJar(String coordinates) throws MojoExecutionException {
            try {
                return system.resolveArtifact(
                                session,
                                new org.eclipse.aether.resolution.ArtifactRequest(
                                        new DefaultArtifact(coordinates), repositories, null))
                        .getArtifact()
                        .getFile();
            } catch (Exception e) {
                throw new MojoExecutionException("could not resolve " + coordinates + ": " + e.getMessage(), e);
            }
        }

        /** The artifacts {@code coordinates} needs at run time, keyed by groupId:artifactId. */
        Map<String, File> resolve(String coordinates) throws MojoExecutionException {
            try {
                CollectRequest collect =
                        new CollectRequest(new Dependency(new DefaultArtifact(coordinates), "runtime"), repositories);
                Map<String, File> files = new LinkedHashMap<>();
                for (ArtifactResult r : system.resolveDependencies(session, new DependencyRequest(collect, null))
                        .getArtifactResults()) {
                    files.put(
                            r.getArtifact().getGroupId() + ":" + r.getArtifact().getArtifactId(),
                            r.getArtifact().getFile());
                }
                return files;
            } catch (Exception e) {
                throw new MojoExecutionException(
                        "could not resolve " + coordinates + ", which Surefire would add to run"
                                + " this module's JUnit Platform tests: " + e.getMessage()
                                + ". Add it to the module's test dependencies, or check the repository settings.",
                        e);
            }
        }
    }

    /**
     * @param properties the project's properties as the tests would see them (after plugins such
     *     as JaCoCo set theirs), for {@code @{...}} in argLine
     */
    public static TestModule create(
            MavenProject project,
            Properties properties,
            SurefireSettings settings,
            Resolver resolver,
            Toolchain toolchain,
            File agentJar,
            int timeoutSeconds,
            Log log)
            throws MojoExecutionException {
        TestModule m = new TestModule(project, settings);
        // For finding frameworks only: one artifact per groupId:artifactId is enough there. The
        // classpath takes every artifact, so that `jffi` and `jffi:native` are both on it.
        Map<String, Artifact> artifacts = new LinkedHashMap<>();
        for (Artifact a : project.getArtifacts()) {
            artifacts.putIfAbsent(a.getGroupId() + ":" + a.getArtifactId(), a);
        }
        m.buildClasspath(project.getArtifacts());
        m.chooseFrameworks(artifacts, resolver);
        m.classpath.add(agentJar);
        m.agentJar = agentJar;
        m.buildJvm(properties, toolchain, timeoutSeconds, log);
        return m;
    }

    /** Surefire's order: test classes, classes, dependencies in resolution order, then additional elements. */
    private void buildClasspath(Collection<Artifact> dependencies) {
        classpath.add(settings.testClassesDirectory);
        classpath.add(settings.classesDirectory);
        classpath.addAll(dependencyClasspath(
                dependencies, settings.classpathDependencyExcludes, settings.classpathDependencyScopeExclude));
        for (String element : settings.additionalClasspathElements) {
            for (String part : element.split(",")) {
                if (!part.trim().isEmpty()) {
                    classpath.add(new File(part.trim()));
                }
            }
        }
    }

    /**
     * The files of {@code dependencies} that go on the test classpath, in order, without those that
     * {@code classpathDependencyExcludes} (groupId:artifactId, or groupId:artifactId:classifier)
     * or {@code classpathDependencyScopeExclude} remove.
     */
    static List<File> dependencyClasspath(
            Collection<Artifact> dependencies, List<String> excludes, String scopeExclude) {
        ScopeArtifactFilter scopeFilter =
                scopeExclude == null || scopeExclude.isEmpty() ? null : new ScopeArtifactFilter(scopeExclude);
        Set<String> excluded = new LinkedHashSet<>(excludes);
        List<File> files = new ArrayList<>();
        for (Artifact a : dependencies) {
            if (a.getFile() == null || !a.getArtifactHandler().isAddedToClasspath()) {
                continue;
            }
            String ga = a.getGroupId() + ":" + a.getArtifactId();
            boolean byName =
                    excluded.contains(ga) || (a.hasClassifier() && excluded.contains(ga + ":" + a.getClassifier()));
            if (byName || (scopeFilter != null && scopeFilter.include(a))) {
                continue;
            }
            files.add(a.getFile());
        }
        return files;
    }

    /**
     * Which frameworks Surefire's provider would run: the JUnit Platform provider when the module
     * has Jupiter or a platform engine (JUnit 4 classes then only through the vintage engine),
     * otherwise the JUnit 4 provider. Adds a version-aligned launcher (and Jupiter engine) the way
     * Surefire does when the module relies on Surefire for them.
     */
    private void chooseFrameworks(Map<String, Artifact> artifacts, Resolver resolver) throws MojoExecutionException {
        boolean platform = artifacts.containsKey(PLATFORM_ENGINE) || artifacts.containsKey(JUPITER_API);
        if (platform) {
            if (artifacts.containsKey(JUPITER_API) || artifacts.containsKey(JUPITER_ENGINE)) {
                frameworks.add("junit5");
            }
            if (artifacts.containsKey(VINTAGE_ENGINE)) {
                frameworks.add("junit4");
            } else if (artifacts.containsKey(JUNIT4)) {
                notes.add("JUnit 4 is on the test classpath but the vintage engine is not, so Surefire's JUnit Platform"
                        + " provider runs no JUnit 4 tests; odrust does the same.");
            }
            Set<File> present = new LinkedHashSet<>(classpath);
            if (artifacts.containsKey(JUPITER_API) && !artifacts.containsKey(JUPITER_ENGINE)) {
                addAligned(resolver, JUPITER_ENGINE, artifacts.get(JUPITER_API).getBaseVersion(), artifacts, present);
            }
            if (!artifacts.containsKey(PLATFORM_LAUNCHER)) {
                Artifact commons = artifacts.get(PLATFORM_COMMONS) != null
                        ? artifacts.get(PLATFORM_COMMONS)
                        : artifacts.get(PLATFORM_ENGINE);
                if (commons != null) {
                    addAligned(resolver, PLATFORM_LAUNCHER, commons.getBaseVersion(), artifacts, present);
                }
            }
        } else if (artifacts.containsKey(JUNIT4)) {
            frameworks.add("junit4");
        } else if (artifacts.containsKey("org.testng:testng")) {
            notes.add("TestNG tests are not supported by odrust yet; they are not run.");
        }
    }

    /**
     * Adds {@code groupId:artifactId} at {@code version}, the version Surefire aligns with the
     * module's. Offline, when that version is not in the local repository, one of the same minor
     * version that is there is used (said in a note); when none is, the error names the fix.
     */
    private void addAligned(
            Resolver resolver, String ga, String version, Map<String, Artifact> artifacts, Set<File> present)
            throws MojoExecutionException {
        try {
            addResolved(resolver, ga + ":" + version, artifacts, present);
            return;
        } catch (MojoExecutionException e) {
            if (!resolver.offline()) {
                throw e;
            }
            String[] parts = ga.split(":");
            String local = LocalArtifacts.sameMinor(resolver.localRepository(), parts[0], parts[1], version);
            if (local == null) {
                // not chained: Maven would print the resolver's own message after this one
                throw new MojoExecutionException("the build is offline (-o) and " + ga + ":" + version
                        + ", which Surefire adds to run this module's JUnit Platform tests, is not in the local"
                        + " repository (" + resolver.localRepository() + ") in any " + LocalArtifacts.minor(version)
                        + ".x version. Run once without -o, or fetch it: mvn dependency:get -Dartifact=" + ga + ":"
                        + version + " (or add it to the module's test dependencies).");
            }
            // the jar alone, when the module has every artifact it needs (in the module's versions)
            Set<String> needs = resolver.dependencyKeys(ga + ":" + local);
            List<String> missing = new ArrayList<>();
            if (needs == null) {
                missing.add("(the dependencies of " + ga + ":" + local + " cannot be read)");
            } else {
                needs.stream().filter(k -> !artifacts.containsKey(k)).forEach(missing::add);
            }
            if (!missing.isEmpty()) {
                throw new MojoExecutionException("the build is offline (-o) and " + ga + ":" + version
                        + ", which Surefire adds to run this module's JUnit Platform tests, is not in the local"
                        + " repository; " + local + " is, but the module lacks what it needs: "
                        + String.join(", ", missing) + ". Run once without -o, or fetch it: mvn dependency:get"
                        + " -Dartifact=" + ga + ":" + version + ".");
            }
            File jar = resolver.resolveJar(ga + ":" + local);
            if (present.add(jar)) {
                classpath.add(jar);
            }
            notes.add("offline (-o): " + ga + ":" + version + " (the version Surefire aligns with this module's) is"
                    + " not in the local repository; using " + local + ", which is. For the aligned one: run once"
                    + " without -o, or mvn dependency:get -Dartifact=" + ga + ":" + version);
        }
    }

    private void addResolved(Resolver resolver, String coordinates, Map<String, Artifact> artifacts, Set<File> present)
            throws MojoExecutionException {
        // Only what the module lacks: its own versions of shared artifacts (commons, opentest4j) win.
        for (Map.Entry<String, File> e : resolver.resolve(coordinates).entrySet()) {
            if (!artifacts.containsKey(e.getKey()) && present.add(e.getValue())) {
                classpath.add(e.getValue());
            }
        }
    }

    private void buildJvm(Properties properties, Toolchain toolchain, int timeoutSeconds, Log log)
            throws MojoExecutionException {
        if (settings.jvm != null && !settings.jvm.trim().isEmpty()) {
            jvm.java = settings.jvm.trim();
        } else if (toolchain != null && toolchain.findTool("java") != null) {
            jvm.java = toolchain.findTool("java");
        } else {
            jvm.java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        }
        ArgLine.Replaced argLine = ArgLine.replace(settings.argLine, properties, 1);
        for (String name : argLine.unresolved) {
            log.warn("argLine refers to the property " + name + ", which nothing in this build set (Surefire would pass"
                    + " it on literally and the JVM would refuse it); odrust leaves it out. If a plugin such as"
                    + " jacoco:prepare-agent sets it, run that goal in the same command.");
        }
        try {
            jvm.jvmArgs.addAll(ArgLine.split(argLine.text));
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException(
                    "cannot use Surefire's argLine: " + e.getMessage() + ". Fix the quotes in <argLine>.");
        }
        if (settings.enableAssertions) {
            jvm.jvmArgs.add("-ea");
        }
        jvm.workingDirectory = settings.workingDirectory != null ? settings.workingDirectory : project.getBasedir();
        if (!jvm.workingDirectory.isDirectory() && !jvm.workingDirectory.mkdirs()) {
            throw new MojoExecutionException(
                    "Surefire's workingDirectory " + jvm.workingDirectory + " does not exist and cannot be created");
        }
        jvm.environment = new LinkedHashMap<>(settings.environmentVariables);
        jvm.removedEnvironment.addAll(settings.excludedEnvironmentVariables);
        jvm.timeoutSeconds = timeoutSeconds;

        systemProperties.putAll(settings.systemProperties);
        systemProperties.put("basedir", project.getBasedir().getAbsolutePath());
        systemProperties.replaceAll(
                (k, v) -> v.replace("${surefire.forkNumber}", "1").replace("${surefire.threadNumber}", "1"));
    }

    public String id() {
        return project.getGroupId() + ":" + project.getArtifactId();
    }
}
