package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.RenderRequest;
import io.github.odrust.engine.protocol.Rendered;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Turns the engine's detection summary into {@code report.json} (schema in docs/detect.md), and
 * writes the HTML report and the Surefire-style XML the engine renders from it.
 */
public final class ReportWriter {
    public static final int SCHEMA_VERSION = 1;

    private ReportWriter() {}

    /**
     * @param reproduceGoal how to invoke odrust's reproduce goal on this project, e.g. {@code odrust:reproduce}
     * @param complete false for a report written while the run goes on (or left by one that was killed)
     * @param odrustVersion the engine's version, which made the report (odrust:repair refuses a report of another)
     */
    public static JsonObject report(
            JsonObject summary,
            String module,
            Path basedir,
            Path out,
            String reproduceGoal,
            boolean complete,
            String odrustVersion) {
        return report(summary, module, basedir, shard -> out, reproduceGoal, complete, odrustVersion);
    }

    /**
     * A report whose flaky tests may come from several runs: {@code outOf} gives the output
     * directory of the run of shard {@code n} (0 for an entry without {@code shard}), whose
     * {@code orders/} hold its experiments' order files (odrust:merge).
     */
    public static JsonObject report(
            JsonObject summary,
            String module,
            Path basedir,
            java.util.function.IntFunction<Path> outOf,
            String reproduceGoal,
            boolean complete,
            String odrustVersion) {
        JsonObject report = new JsonObject();
        report.addProperty("schema_version", SCHEMA_VERSION);
        report.addProperty("module", module);
        report.addProperty("odrust_version", odrustVersion);
        report.addProperty("complete", complete);
        for (Map.Entry<String, JsonElement> e : summary.entrySet()) {
            report.add(e.getKey(), e.getValue().deepCopy());
        }
        report.add("explanations", explanations(report.getAsJsonArray("flaky")));
        for (JsonElement f : report.getAsJsonArray("flaky")) {
            JsonObject entry = f.getAsJsonObject();
            Path out = outOf.apply(
                    entry.has("shard") && !entry.get("shard").isJsonNull()
                            ? entry.get("shard").getAsInt()
                            : 0);
            String failing = orderPath(basedir, out, entry.get("failing_experiment"));
            entry.addProperty("failing_order", failing);
            entry.addProperty("passing_order", orderPath(basedir, out, entry.get("passing_experiment")));
            entry.addProperty(
                    "reproduce", failing == null ? null : "mvn " + reproduceGoal + " -Dodrust.order=" + failing);
        }
        return report;
    }

    /**
     * How many OD tests were explained (minimization ran for them) and how many of those
     * explanations finished: {@code complete} says the run ended, not that every explanation did.
     */
    static JsonObject explanations(JsonArray flaky) {
        int explained = 0;
        int finished = 0;
        for (JsonElement f : flaky) {
            JsonObject entry = f.getAsJsonObject();
            String kind = entry.has("kind") ? entry.get("kind").getAsString() : "";
            if (!kind.equals("victim") && !kind.equals("brittle")) {
                continue;
            }
            boolean done = entry.has("minimize_complete")
                    && entry.get("minimize_complete").getAsBoolean();
            int spent = entry.has("minimize_experiments")
                    ? entry.get("minimize_experiments").getAsInt()
                    : 0;
            if (spent > 0 || done) {
                explained++;
                finished += done ? 1 : 0;
            }
        }
        JsonObject counts = new JsonObject();
        counts.addProperty("explained", explained);
        counts.addProperty("complete", finished);
        return counts;
    }

    private static String orderPath(Path basedir, Path out, JsonElement experiment) {
        if (experiment == null || experiment.isJsonNull()) {
            return null;
        }
        Path file = out.resolve("orders")
                .resolve("exp-" + experiment.getAsInt() + ".txt")
                .toAbsolutePath();
        Path base = basedir.toAbsolutePath();
        return (file.startsWith(base) ? base.relativize(file) : file).toString().replace('\\', '/');
    }

    /** Writes report.json, report.html and surefire-reports/TEST-odrust.xml under {@code out}. */
    public static void write(JsonObject report, Engine engine, Path out) throws IOException {
        atomicWrite(out.resolve("report.json"), Json.PRETTY.toJson(report));
        Rendered rendered = engine.call("render_report", new RenderRequest(report), Rendered.class);
        atomicWrite(out.resolve("report.html"), rendered.html);
        atomicWrite(out.resolve("surefire-reports").resolve("TEST-odrust.xml"), rendered.xml);
    }

    /** Writes {@code text} to a temporary file beside {@code file}, then moves it over {@code file}. */
    public static void atomicWrite(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
