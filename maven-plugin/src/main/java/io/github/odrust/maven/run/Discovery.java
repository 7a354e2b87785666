package io.github.odrust.maven.run;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.agent.format.PlanFile;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.fork.EventTail;
import io.github.odrust.maven.fork.ManifestJar;
import io.github.odrust.maven.fork.TestJvm;
import io.github.odrust.maven.surefire.TestClassScanner;
import io.github.odrust.maven.surefire.TestSelection;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * Finds a module's tests the way Surefire would: scan test classes with Surefire's includes,
 * excludes and runOrder, then let the jvm-agent ask JUnit (in a test JVM with the module's real
 * classpath) which of them are tests and in what order the framework runs their methods. The result
 * is the module's <em>suite</em> (docs/protocol.md), whose concatenated tests are the original order.
 */
public final class Discovery {
    private Discovery() {}

    /** The suite, or an exception naming why the module has no tests. */
    public static DiscoveredSuite discover(TestModule module, Path dir, Log log) throws MojoExecutionException {
        TestClassScanner scanner = new TestClassScanner();
        List<String> candidates = scanner.scan(module.settings);
        scanner.warnings().forEach(log::warn);
        module.notes.forEach(log::info);
        if (module.frameworks.isEmpty()) {
            throw noTests(module, "it has no JUnit 4 or JUnit 5 (Jupiter) test dependency");
        }
        TestSelection selection = scanner.selection();
        if (candidates.isEmpty()) {
            throw noTests(
                    module,
                    "no compiled class in " + module.settings.testClassesDirectory + " matches Surefire's "
                            + (hasTestParameter(module) ? "-Dtest=" + module.settings.test : "includes and excludes")
                            + " (" + selection + ")");
        }
        Path events = dir.resolve("discover-events.jsonl");
        Path plan = dir.resolve("discover-plan.txt");
        Path log0 = dir.resolve("discover-jvm.log");
        JsonObject suite = new JsonObject();
        suite.addProperty("schema_version", 1);
        suite.addProperty("module", module.id());
        JsonArray classes = new JsonArray();
        suite.add("classes", classes);
        try {
            PlanFile.Writer p = new PlanFile.Writer("discover", events)
                    .frameworks(module.frameworks)
                    .classpath(module.classpath)
                    .systemProperties(module.systemProperties)
                    .configurationParameters(module.settings.junitPlatformConfiguration)
                    .groups(module.settings.groups, module.settings.excludedGroups);
            candidates.forEach(p::candidate);
            p.write(plan);
            Path jar = dir.resolve("classpath.jar");
            ManifestJar.write(jar, module.classpath, "io.github.odrust.agent.Main");
            Files.deleteIfExists(events);
            EventTail tail = new EventTail(events);
            TestJvm.Exit exit = TestJvm.run(module.jvm, jar, plan, log0, tail::poll);
            boolean ended = false;
            for (JsonObject e : tail.all()) {
                String kind = e.get("event").getAsString();
                if ("class".equals(kind)) {
                    JsonObject record = e.deepCopy();
                    record.remove("event");
                    if (selection.filtersMethods()) {
                        keepSelected(record, selection);
                    }
                    if (record.getAsJsonArray("tests").size() > 0) {
                        classes.add(record);
                    }
                } else if ("warning".equals(kind)) {
                    log.warn(str(e, "class") + ": " + str(e, "message"));
                } else if ("agent-error".equals(kind)) {
                    throw new MojoExecutionException("odrust could not discover the tests of " + module.id() + ": "
                            + str(e, "message") + tailOf(log0));
                } else if ("end".equals(kind)) {
                    ended = true;
                }
            }
            if (!ended) {
                throw new MojoExecutionException("the test JVM that lists the tests of " + module.id() + " "
                        + (exit.timedOut ? "timed out" : "ended with exit code " + exit.exitCode) + " before finishing"
                        + " (command: " + String.join(" ", TestJvm.command(module.jvm, jar, plan)) + ")"
                        + tailOf(log0));
            }
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "could not run test discovery for " + module.id() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("interrupted while discovering tests", e);
        }
        if (classes.size() == 0) {
            throw noTests(
                    module,
                    candidates.size() + " candidate classes matched Surefire's includes, but none has a test" + " that "
                            + String.join(" or ", module.frameworks) + " would run");
        }
        return DiscoveredSuite.of(suite);
    }

    private static boolean hasTestParameter(TestModule module) {
        return module.settings.test != null && !module.settings.test.trim().isEmpty();
    }

    /** Drops the tests (and dynamic containers) of a class record that Surefire's method filters leave out. */
    static void keepSelected(JsonObject record, TestSelection selection) {
        String framework = str(record, "framework");
        for (String key : new String[] {"tests", "dynamic"}) {
            if (record.has(key) && record.get(key).isJsonArray()) {
                JsonArray kept = new JsonArray();
                record.getAsJsonArray(key).forEach(t -> {
                    if (selection.selectsTest(t.getAsString(), framework)) {
                        kept.add(t);
                    }
                });
                record.add(key, kept);
            }
        }
    }

    /** The original order: every test of the suite, class by class, as `mvn test` runs them. */
    public static List<String> originalOrder(DiscoveredSuite suite) {
        return suite.originalOrder();
    }

    /**
     * What a goal's count of {@code suite}'s tests means, for its first console line: empty when
     * every test is one run; else how many are JUnit 5 parameterized, repeated or factory methods,
     * each counted once while Surefire counts every invocation.
     */
    public static String countNote(DiscoveredSuite suite) {
        int dynamic = 0;
        for (DiscoveredSuite.ClassRecord c : suite.classes) {
            dynamic += c.dynamic.size();
        }
        return dynamic == 0
                ? ""
                : " (" + dynamic + " of them parameterized, repeated or factory methods, each counted once;"
                        + " Surefire counts every invocation)";
    }

    /**
     * Writes {@code suite.json} and {@code orders/original.txt} under {@code outputDirectory} and
     * returns the path of the original order.
     */
    public static Path writeSuite(DiscoveredSuite suite, Path outputDirectory) throws MojoExecutionException {
        try {
            Files.createDirectories(outputDirectory.resolve("orders"));
            Files.write(
                    outputDirectory.resolve("suite.json"),
                    Json.PRETTY_WITHOUT_NULLS.toJson(suite).getBytes(StandardCharsets.UTF_8));
            Path original = outputDirectory.resolve("orders").resolve("original.txt");
            StringBuilder text =
                    new StringBuilder("# the original order: the order `mvn test` runs this module's tests\n");
            originalOrder(suite).forEach(t -> text.append(t).append('\n'));
            Files.write(original, text.toString().getBytes(StandardCharsets.UTF_8));
            return original;
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "could not write the suite to " + outputDirectory + ": " + e.getMessage(), e);
        }
    }

    static NoTestsException noTests(TestModule module, String why) {
        return new NoTestsException("module " + module.id() + " has no tests for odrust to run: " + why + ".");
    }

    /** The module has nothing for odrust to run; goals that walk a reactor skip such modules. */
    public static final class NoTestsException extends MojoExecutionException {
        private static final long serialVersionUID = 1L;

        NoTestsException(String message) {
            super(message);
        }
    }

    static String str(JsonObject o, String key) {
        return o.has(key) && !o.get(key).isJsonNull() ? o.get(key).getAsString() : null;
    }

    /** The last lines of a test JVM's output, for error messages. */
    static String tailOf(Path log) {
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
            return last.isEmpty() ? "" : "\nLast lines of " + log + ":\n  " + String.join("\n  ", last);
        } catch (IOException e) {
            return "";
        }
    }
}
