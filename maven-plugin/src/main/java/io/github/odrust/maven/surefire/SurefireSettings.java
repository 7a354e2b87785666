package io.github.odrust.maven.surefire;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of a module's effective Surefire configuration that decide how its tests run. Filled by
 * {@link SurefireSettingsReader} from the configured Surefire mojo, so defaults, {@code -D} user
 * properties and expressions are resolved exactly as {@code mvn test} resolves them.
 */
public final class SurefireSettings {
    public String surefireVersion;
    public File testClassesDirectory;
    public File classesDirectory;
    public File reportsDirectory;
    public String argLine;
    public Map<String, String> systemProperties = new LinkedHashMap<>();
    public Map<String, String> environmentVariables = new LinkedHashMap<>();
    public List<String> excludedEnvironmentVariables = new ArrayList<>();
    public File workingDirectory;
    public String jvm;
    public boolean enableAssertions = true;
    public List<String> additionalClasspathElements = new ArrayList<>();
    public List<String> classpathDependencyExcludes = new ArrayList<>();
    public String classpathDependencyScopeExclude;
    public List<String> includes = new ArrayList<>();
    public List<String> excludes = new ArrayList<>();
    public File includesFile;
    public File excludesFile;
    public String runOrder = "filesystem";
    public Long runOrderRandomSeed;
    public String forkCount = "1";
    public boolean reuseForks = true;
    public Map<String, String> junitPlatformConfiguration = new LinkedHashMap<>();
    public String groups;
    public String excludedGroups;
    public String test;
    public Integer forkedProcessTimeoutInSeconds;

    /** Surefire's defaults, for a module whose POM has no Surefire plugin at all. */
    public static List<String> defaultIncludes() {
        return List.of("**/Test*.java", "**/*Test.java", "**/*Tests.java", "**/*TestCase.java");
    }

    public static List<String> defaultExcludes() {
        return List.of("**/*$*");
    }

    /** True when {@code mvn test} never lets tests of different classes share a JVM. */
    public boolean isolatesClasses() {
        return !reuseForks;
    }
}
