package io.github.odrust.maven;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.idtests.Shuffle;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/** {@code run-order} and its alias {@code reproduce}: run one order exactly and report each test. */
public abstract class AbstractRunOrderMojo extends AbstractOdrustMojo {
    /** The order: a file with one test id per line (relative to the module), or ids separated by commas. */
    @Parameter(property = "odrust.order")
    protected String order;

    /** The folder name under target/odrust/run-order/; defaults to the order file's name, or "inline". */
    @Parameter(property = "odrust.name")
    protected String name;

    /** Fail the build when a test of the order does not pass (a reproduced failure then stops a script). */
    @Parameter(property = "odrust.failOnFailure", defaultValue = "false")
    protected boolean failOnFailure;

    /**
     * Runs the order with JDK methods of unspecified order shuffled under this seed
     * (docs/id-tests.md), as {@code odrust:detect-id} does; its reports print the command.
     */
    @Parameter(property = "odrust.id.seed")
    protected Long idSeed;

    /** With {@code odrust.id.seed}: shuffle only these counted calls, e.g. 5 or 3-7,12 (default all). */
    @Parameter(property = "odrust.id.only")
    protected String idOnly;

    /**
     * Whose calls are shuffled: {@code project} (default), calls whose first caller outside the JDK
     * (and assertion libraries) is the module's own code; {@code any}, calls from any code.
     */
    @Parameter(property = "odrust.id.filter", defaultValue = "project")
    protected String idFilter;

    /** Comma-separated class-name prefixes whose calls count as the module's own, e.g. com.acme.lib. */
    @Parameter(property = "odrust.id.include")
    protected String idInclude;

    protected abstract String goal();

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        OrderInput input = OrderInput.resolve(order, project.getBasedir(), name);
        List<long[]> only = Shuffle.parseOnly(idOnly);
        if (idSeed == null && !only.isEmpty()) {
            throw new MojoFailureException(
                    "odrust.id.only needs -Dodrust.id.seed: it chooses which shuffled calls to shuffle"
                            + " under that seed (the reproduce command of odrust:detect-id gives both)");
        }
        Shuffle.Filter filter = Shuffle.Filter.of(idFilter, idInclude);
        Engine engine = engine();
        TestModule module = testModule();
        Path out = outputDirectory.toPath();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        Discovery.writeSuite(suite, out);
        Path dir = out.resolve("run-order").resolve(input.name);
        clean(dir);
        getLog().info("running " + input.source + " in " + module.id() + " (" + String.join(" + ", module.frameworks)
                + ")");
        OrderRunner runner = new OrderRunner(module, engine, suite, dir, getLog()).onTest(this::print);
        Path shuffleLog = dir.resolve("shuffle.jsonl");
        if (idSeed != null) {
            JsonArray ranges = new JsonArray();
            for (long[] r : only) {
                JsonArray a = new JsonArray();
                a.add(r[0]);
                a.add(r[1]);
                ranges.add(a);
            }
            Path options = dir.resolve("agent-options.txt");
            try {
                Files.createDirectories(dir);
                Files.deleteIfExists(shuffleLog);
                Files.write(
                        options,
                        Shuffle.options(
                                        module,
                                        filter,
                                        idSeed,
                                        ranges,
                                        !only.isEmpty(),
                                        shuffleLog,
                                        "odrust:" + goal() + " -Dodrust.id.seed=" + idSeed)
                                .getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new MojoExecutionException("cannot write " + options + ": " + e.getMessage(), e);
            }
            runner.recording(options);
            getLog().info("shuffling JDK results under seed " + idSeed
                    + (only.isEmpty() ? "" : ", only calls " + idOnly) + " (docs/id-tests.md)");
        }
        RunResult result = runner.run(input.text, input.source);
        if (idSeed != null) {
            Shuffle.Log l = Shuffle.read(shuffleLog);
            getLog().info("shuffled calls counted: "
                    + (l.count < 0 ? "unknown (the test JVM did not exit normally)" : l.count));
            for (JsonElement c : l.calls) {
                JsonObject call = c.getAsJsonObject();
                JsonObject at = call.getAsJsonObject("at");
                getLog().info("  call " + call.get("index") + ": "
                        + call.get("api").getAsString() + " at "
                        + at.get("class").getAsString() + "." + at.get("method").getAsString() + "("
                        + (at.get("file").isJsonNull() ? "?" : at.get("file").getAsString()) + ":"
                        + (at.get("line").isJsonNull() ? "?" : at.get("line").getAsString()) + ")");
            }
        }

        long failed = result.results.stream()
                .filter(r -> !"pass".equals(r.outcome) && !"skipped".equals(r.outcome))
                .count();
        // A failure is said at WARNING; `mvn -q` hides warnings too, so -Dodrust.failOnFailure=true
        // makes it the build's outcome.
        java.util.function.Consumer<CharSequence> outcome = failed > 0 ? getLog()::warn : getLog()::info;
        outcome.accept(String.format(
                "%s: %s in %d JVM%s, %d segment%s: %s",
                goal(),
                Words.count(result.results.size(), "test"),
                result.jvms.size(),
                result.jvms.size() == 1 ? "" : "s",
                result.segments.size(),
                result.segments.size() == 1 ? "" : "s",
                counts(result)));
        getLog().info("result: " + dir.resolve("result.json"));
        getLog().info("again: mvn " + invocation("reproduce") + " -Dodrust.order="
                + input.reproduceArgument(project.getBasedir())
                + (idSeed == null
                        ? ""
                        : " -Dodrust.id.seed=" + idSeed + (only.isEmpty() ? "" : " -Dodrust.id.only=" + idOnly.trim())
                                + (filter.any ? " -Dodrust.id.filter=any" : "")
                                + (filter.include.isEmpty()
                                        ? ""
                                        : " -Dodrust.id.include=" + String.join(",", filter.include))));
        if (!Boolean.TRUE.equals(result.honoured)) {
            throw new MojoExecutionException(
                    "odrust could not run the order exactly as asked (" + result.firstDifference
                            + "); the outcomes above belong to the order that really ran, recorded in "
                            + dir.resolve("result.json")
                            + ". Please report this with that file.");
        }
        if (failOnFailure && failed > 0) {
            throw new MojoFailureException(Words.count(failed, "test") + " of the order did not pass ("
                    + counts(result) + "; odrust.failOnFailure=true): see the lines above and "
                    + dir.resolve("result.json"));
        }
    }

    private void print(RunResult.TestResult r) {
        String time = r.timeMs == null ? "" : "  (" + r.timeMs + " ms)";
        String line = String.format("%-8s %s%s", r.outcome.toUpperCase(java.util.Locale.ROOT), r.test, time);
        if ("pass".equals(r.outcome) || "skipped".equals(r.outcome)) {
            getLog().info(line);
        } else {
            getLog().warn(line + (r.message == null ? "" : "\n           " + firstLine(r.message)));
        }
    }

    static String counts(RunResult r) {
        StringBuilder b = new StringBuilder();
        for (String o : RunResult.OUTCOMES) {
            long n = r.count(o);
            if (n > 0) {
                b.append(b.length() == 0 ? "" : ", ").append(o).append(' ').append(n);
            }
        }
        return b.length() == 0 ? "nothing ran" : b.toString();
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }

    private static void clean(Path dir) throws MojoExecutionException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(p)) {
                    Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new MojoExecutionException("could not clear " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The order the user gave, as text for the engine, with where it came from. */
    static final class OrderInput {
        final String text;
        final String source;
        final String name;
        final File file;

        private OrderInput(String text, String source, String name, File file) {
            this.text = text;
            this.source = source;
            this.name = name;
            this.file = file;
        }

        static OrderInput resolve(String order, File basedir, String name) throws MojoFailureException {
            if (order == null || order.trim().isEmpty()) {
                throw new MojoFailureException(
                        "no order given: set -Dodrust.order to a file with one test id per line"
                                + " (e.g. -Dodrust.order=target/odrust/orders/original.txt) or to ids separated by commas"
                                + " (e.g. -Dodrust.order=com.acme.ATest#a,com.acme.BTest#b). `mvn odrust:discover` lists the tests.");
            }
            String value = order.trim();
            File f = new File(value);
            if (!f.isAbsolute()) {
                f = new File(basedir, value);
            }
            if (f.isFile()) {
                try {
                    String text = new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
                    String base = f.getName().contains(".")
                            ? f.getName().substring(0, f.getName().lastIndexOf('.'))
                            : f.getName();
                    return new OrderInput(text, value, safeName(name != null ? name : base), f);
                } catch (IOException e) {
                    throw new MojoFailureException("cannot read the order file " + f + ": " + e.getMessage());
                }
            }
            boolean looksLikeFile = value.endsWith(".txt") || value.contains("/") || value.contains(File.separator);
            if (looksLikeFile && !value.contains("#")) {
                throw new MojoFailureException("the order file " + f + " given by -Dodrust.order does not exist");
            }
            return new OrderInput(value, "-Dodrust.order", safeName(name != null ? name : "inline"), null);
        }

        String reproduceArgument(File basedir) {
            if (file == null) {
                return text.contains(" ") ? "\"" + text + "\"" : text;
            }
            Path rel =
                    basedir.toPath().toAbsolutePath().relativize(file.toPath().toAbsolutePath());
            return rel.toString();
        }

        private static String safeName(String n) {
            String s = n.replaceAll("[^A-Za-z0-9._-]", "_");
            return s.isEmpty() ? "inline" : s;
        }
    }
}
