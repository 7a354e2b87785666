package io.github.odrust.maven.surefire;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.surefire.api.testset.TestListResolver;
import org.apache.maven.surefire.shared.utils.io.FileUtils;

/**
 * Which test classes and methods Surefire selects. The matching is Surefire's own
 * {@link TestListResolver}, built from the settings as Surefire 3.2.5's {@code AbstractSurefireMojo}
 * builds it: {@code -Dtest} patterns replace {@code includes}/{@code excludes} (and their files);
 * otherwise {@code includes} plus {@code includesFile} (Surefire's defaults when empty) and
 * {@code excludes} plus {@code excludesFile} (else {@code **}{@code /*$*}).
 */
public final class TestSelection {
    private final TestListResolver resolver;

    private TestSelection(TestListResolver resolver) {
        this.resolver = resolver;
    }

    public static TestSelection of(SurefireSettings settings) throws MojoExecutionException {
        if (settings.test != null && !settings.test.trim().isEmpty()) {
            return new TestSelection(new TestListResolver(List.of(settings.test), List.of()));
        }
        List<String> includes = patterns(settings.includes, settings.includesFile, "includes");
        if (includes.isEmpty()) {
            includes = SurefireSettings.defaultIncludes();
        }
        List<String> excludes = patterns(settings.excludes, settings.excludesFile, "excludes");
        if (excludes.isEmpty()) {
            excludes = SurefireSettings.defaultExcludes();
        }
        return new TestSelection(new TestListResolver(includes, excludes));
    }

    /** The parameter's patterns (a method filter there is an error, as in Surefire), then the file's lines. */
    private static List<String> patterns(List<String> parameter, File file, String name) throws MojoExecutionException {
        List<String> out = new ArrayList<>();
        for (String p : parameter) {
            if (p.contains("#")) {
                throw new MojoExecutionException("Method filter prohibited in includes|excludes parameter: " + p
                        + " (Surefire refuses it too; use -Dtest or " + name + "File for method filters)");
            }
            out.add(p);
        }
        if (file != null) {
            if (!file.exists()) {
                throw new MojoExecutionException(
                        "Failed to load list from file: " + file + " (Surefire's " + name + "File)");
            }
            try {
                out.addAll(
                        FileUtils.loadFile(file)); // trimmed, without blank lines and # comments, as Surefire reads it
            } catch (IOException e) {
                throw new MojoExecutionException(
                        "could not read Surefire's " + name + "File " + file + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** Whether Surefire's scan keeps the class file at {@code path}, relative to the test classes ({@code com/acme/CartTest.class}). */
    public boolean selectsClassFile(String path) {
        return resolver.shouldRun(path, null);
    }

    /** Whether some pattern names methods ({@code Class#method}), so that not every test of a selected class runs. */
    public boolean filtersMethods() {
        return resolver.hasMethodPatterns();
    }

    /**
     * Whether Surefire runs the test {@code pkg.Class#method} of the given framework. A JUnit 5 id's
     * invocation suffix ({@code [2]}) is odrust's, so only the method name is matched; a JUnit 4
     * parameterized test matches by its JUnit name ({@code adds[0]}, as Surefire's JUnit 4 provider
     * sees it) or its method name ({@code adds}, as the vintage engine reports it).
     */
    public boolean selectsTest(String testId, String framework) {
        int hash = testId.indexOf('#');
        if (hash < 0) {
            return selectsClassFile(TestListResolver.toClassFileName(testId));
        }
        String classFile = TestListResolver.toClassFileName(testId.substring(0, hash));
        String name = testId.substring(hash + 1);
        int paren = name.indexOf('('); // an overloaded method's parameter list: m(Character, boolean)
        int bracket = name.indexOf('[');
        int end = paren > 0 ? paren : bracket;
        String method = end < 0 ? name : name.substring(0, end);
        if ("junit5".equals(framework)) {
            return resolver.shouldRun(classFile, method);
        }
        return resolver.shouldRun(classFile, name) || resolver.shouldRun(classFile, method);
    }

    @Override
    public String toString() {
        return resolver.getPluginParameterTest();
    }
}
