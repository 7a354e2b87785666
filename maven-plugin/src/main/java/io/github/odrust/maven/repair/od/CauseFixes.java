package io.github.odrust.maven.repair.od;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Cause;
import io.github.odrust.engine.protocol.RepairStep;
import io.github.odrust.maven.detect.DetectInput;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.repair.RepairFile;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * What {@code odrust:repair} made of each root cause, written into report.json's {@code causes}
 * ({@code fixes}: the patch, its diff, its checks, the command that applies it) and so into
 * report.html and the Surefire XML, which the engine renders again from it.
 */
final class CauseFixes {
    private CauseFixes() {}

    /** The fix of one repair entry, as report.json holds it. */
    static Cause.Fix of(RepairFile.Entry e, Path basedir, Path root, Charset charset) throws IOException {
        Cause.Fix fix = new Cause.Fix();
        fix.tests.addAll(e.members.isEmpty() ? List.of(e.test) : e.members);
        fix.status = e.status;
        fix.reason = e.split == null ? e.reason : (e.reason == null ? e.split : e.split + "; " + e.reason);
        fix.experiments = e.experiments;
        if ("patched".equals(e.status)) {
            fix.patch = e.patch;
            fix.apply = e.apply;
            fix.applied = e.applied;
            // As the diff and the command name it: from where Maven ran.
            fix.file = e.sourceFile != null ? Repairer.relative(root, e.sourceFile) : e.file;
            Path patch = basedir.resolve(e.patch);
            if (Files.isRegularFile(patch)) {
                fix.diff = new String(Files.readAllBytes(patch), charset);
            }
        }
        for (RepairStep.CheckResult c : e.verification) {
            fix.checks.add(new Cause.Check(
                    c.check,
                    c.passed,
                    c.detail != null ? c.detail : Words.order(c.order) + " (experiment " + c.experiment + ")"));
        }
        if (e.applies != null) {
            fix.checks.add(new Cause.Check("git-apply", e.applies.ok(), e.applies.describe()));
        }
        return fix;
    }

    /**
     * Replaces, in report.json under {@code out}, the fixes of the tests {@code entries} repaired
     * and writes the report again (JSON, HTML, XML).
     */
    static void record(
            Engine engine,
            DetectInput input,
            List<RepairFile.Entry> entries,
            Path basedir,
            Path root,
            Path out,
            Charset charset)
            throws MojoExecutionException {
        try {
            // As it is now: a diagnosis during the repair wrote polluted_state into it.
            JsonObject report = com.google.gson.JsonParser.parseString(
                            new String(Files.readAllBytes(input.reportFile), java.nio.charset.StandardCharsets.UTF_8))
                    .getAsJsonObject();
            JsonArray causes = report.has("causes") ? report.getAsJsonArray("causes") : new JsonArray();
            for (RepairFile.Entry e : entries) {
                Cause.Fix fix = of(e, basedir, root, charset);
                Set<String> tests = new HashSet<>(fix.tests);
                for (int i = 0; i < causes.size(); i++) {
                    JsonObject cause = causes.get(i).getAsJsonObject();
                    Cause c = Json.WIRE.fromJson(cause, Cause.class);
                    if (c.tests.stream().noneMatch(tests::contains)) {
                        continue;
                    }
                    c.fixes.removeIf(f -> f.tests.stream().anyMatch(tests::contains));
                    c.fixes.add(fix);
                    cause.add("fixes", Json.WIRE.toJsonTree(c.fixes));
                }
            }
            ReportWriter.rewrite(engine, report, out);
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException(
                    "could not write the repair results into " + out.resolve("report.json") + ": " + e.getMessage(), e);
        }
    }

    /** Words of this class. */
    private static final class Words {
        /** "[a, b, c]", or its first two and how many more. */
        static String order(List<String> order) {
            if (order.size() <= 3) {
                return "ran " + String.join(", ", order);
            }
            return "ran " + order.get(0) + ", " + order.get(1) + " and " + (order.size() - 2) + " more tests";
        }
    }
}
