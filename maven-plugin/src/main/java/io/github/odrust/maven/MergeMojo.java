package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.MergeRequest;
import io.github.odrust.engine.protocol.Suite;
import io.github.odrust.maven.detect.ConsoleReport;
import io.github.odrust.maven.detect.ExperimentLog;
import io.github.odrust.maven.detect.KnownFlaky;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.detect.ReportWriter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code mvn odrust:merge -Dodrust.merge.from=DIR1,DIR2,...}: one report.json, HTML report and
 * Surefire-style XML from the output directories of the shards of one plan
 * ({@code -Dodrust.shard=K/N}, docs/shards.md). Shards of different plans are refused with what
 * differs. Runs no test.
 */
@Mojo(name = "merge", threadSafe = true)
public class MergeMojo extends AbstractCiMojo {
    /**
     * The shards' output directories ({@code target/odrust} of each shard run), comma-separated,
     * relative to the module; {@code *} and {@code ?} match within one path segment, e.g.
     * {@code shards/*}.
     */
    @Parameter(property = "odrust.merge.from")
    protected String from;

    @Parameter(property = "odrust.failOnFlaky", defaultValue = "false")
    protected boolean failOnFlaky;

    @Parameter(property = "odrust.knownFlaky", defaultValue = "${project.basedir}/odrust-known-flaky.txt")
    protected File knownFlaky;

    /** Reads and writes odrust's files only: no test JVM, so no module tests lock. */
    @Override
    protected boolean runsTests() {
        return false;
    }

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (from == null || from.trim().isEmpty()) {
            throw new MojoFailureException(
                    "odrust:merge needs -Dodrust.merge.from=DIR1,DIR2,...: the output directories"
                            + " (target/odrust) of the shard runs (-Dodrust.shard=K/N), or a pattern such as shards/*");
        }
        CiSettings ci = ciSettings();
        Path base = project.getBasedir().toPath();
        Path out = outputDirectory.toPath().toAbsolutePath().normalize();
        List<Path> dirs = new ArrayList<>();
        for (String part : from.split(",")) {
            if (!part.trim().isEmpty()) {
                List<Path> found = expand(base, part.trim());
                if (found.isEmpty()) {
                    throw new MojoFailureException(
                            "odrust.merge.from: " + part.trim() + " matches no directory (relative to " + base + ")");
                }
                dirs.addAll(found);
            }
        }
        Engine engine = engine();
        MergeRequest request = new MergeRequest();
        Map<Integer, Path> outOf = new HashMap<>();
        List<Path> bySource = new ArrayList<>();
        for (Path dir : dirs) {
            if (dir.toAbsolutePath().normalize().equals(out)) {
                throw new MojoFailureException("odrust:merge would write its report into the shard directory " + dir
                        + ": give another -Dodrust.outputDirectory, or leave the shards out of target/odrust");
            }
            request.shards.add(shard(dir, base));
            bySource.add(dir);
        }
        JsonObject merged = engine.call("detect_merge", request);
        for (JsonElement s : merged.getAsJsonArray("shards")) {
            JsonObject shard = s.getAsJsonObject();
            String source = shard.get("source").getAsString();
            for (Path dir : bySource) {
                if (display(base, dir).equals(source)) {
                    outOf.put(shard.get("index").getAsInt(), dir);
                }
            }
        }
        boolean complete = merged.get("complete").getAsBoolean();
        ReportWriter.Context context = new ReportWriter.Context(
                        project.getGroupId() + ":" + project.getArtifactId(),
                        base,
                        out,
                        invocation("reproduce"),
                        engine.version())
                .shards(merged.getAsJsonArray("shards"));
        outOf.forEach(context::shard);
        Report report;
        try {
            report = Report.of(ReportWriter.write(engine, merged.getAsJsonObject("summary"), context, complete, out));
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "odrust:merge could not write its report under " + out + ": " + e.getMessage(), e);
        }
        getLog().info("odrust merge: " + dirs.size() + " shards: " + String.join(", ", displays(base, dirs)));
        ConsoleReport.print(report, out, getLog());
        io.github.odrust.maven.history.RunRecords records = runRecords();
        if (records != null) {
            JsonObject record = records.start("merge", report.module);
            io.github.odrust.maven.history.RunRecords.fromReport(
                    record, report.json, dirs.get(0).resolve("suite.json"));
            records.append(record, getLog());
        }
        io.github.odrust.maven.history.Quarantine.Verdict q = afterReport(engine, report, out, ci, quarantine, history);
        if (failOnFlaky) {
            KnownFlaky.failIfUnlisted(report, knownFlaky, q);
        }
    }

    /** A shard's recorded run: run.json's config, suite.json, the history, the odrust version of its report. */
    private static MergeRequest.ShardRun shard(Path dir, Path base)
            throws MojoFailureException, MojoExecutionException {
        Path run = dir.resolve("detect").resolve("run.json");
        Path history = dir.resolve("detect").resolve("experiments.jsonl");
        Path suite = dir.resolve("suite.json");
        Path report = dir.resolve("report.json");
        for (Path p : new Path[] {run, history, suite, report}) {
            if (!Files.isRegularFile(p)) {
                throw new MojoFailureException("odrust.merge.from: " + dir + " has no " + dir.relativize(p)
                        + ": give the output directory (target/odrust) of a finished or stopped shard run");
            }
        }
        try {
            MergeRequest.ShardRun o = new MergeRequest.ShardRun();
            o.source = display(base, dir);
            JsonObject reportJson = JsonParser.parseString(read(report)).getAsJsonObject();
            o.odrustVersion = reportJson.has("odrust_version")
                    ? reportJson.get("odrust_version").getAsString()
                    : "unknown";
            // run.json's config also holds what only the plugin reads (dependence_include).
            o.config = Json.WIRE.fromJson(
                    JsonParser.parseString(read(run)).getAsJsonObject().get("config"), DetectRequest.Config.class);
            o.suite = Suite.of(JsonParser.parseString(read(suite)).getAsJsonObject());
            ExperimentLog.load(history).history().forEach(r -> o.history.add(ExperimentRecord.of(r)));
            return o;
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException(
                    "odrust.merge.from: cannot read the shard run in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    private static String display(Path base, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        Path b = base.toAbsolutePath().normalize();
        return (abs.startsWith(b) ? b.relativize(abs) : abs).toString().replace('\\', '/');
    }

    private static List<String> displays(Path base, List<Path> dirs) {
        List<String> l = new ArrayList<>();
        dirs.forEach(d -> l.add(display(base, d)));
        return l;
    }

    /** The directories {@code pattern} names, relative to {@code base}; * and ? within one segment. */
    static List<Path> expand(Path base, String pattern) throws MojoExecutionException {
        Path p = base.resolve(pattern.replace('\\', '/'));
        List<Path> current = new ArrayList<>();
        Path root = p.getRoot();
        current.add(root == null ? Path.of("") : root);
        for (Path segment : p) {
            String s = segment.toString();
            List<Path> next = new ArrayList<>();
            for (Path c : current) {
                if (s.contains("*") || s.contains("?")) {
                    if (!Files.isDirectory(c)) {
                        continue;
                    }
                    try (DirectoryStream<Path> in = Files.newDirectoryStream(c, s)) {
                        List<Path> matched = new ArrayList<>();
                        in.forEach(matched::add);
                        matched.sort(null);
                        next.addAll(matched);
                    } catch (IOException e) {
                        throw new MojoExecutionException("cannot list " + c + ": " + e.getMessage(), e);
                    }
                } else {
                    next.add(c.resolve(s));
                }
            }
            current = next;
        }
        List<Path> dirs = new ArrayList<>();
        for (Path c : current) {
            if (Files.isDirectory(c)) {
                dirs.add(c.normalize());
            }
        }
        return dirs;
    }
}
