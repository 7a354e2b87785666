package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.ReportRequest;
import io.github.odrust.engine.protocol.ReportTexts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes {@code report.json} (schema in docs/detect.md), the HTML report and the Surefire-style XML:
 * the engine builds report.json from the detection's summary and renders the other two in the
 * same call ({@code report}); the engine owns the report's schema and version.
 */
public final class ReportWriter {
    private ReportWriter() {}

    /** What a report is built from, besides the summary. */
    public static final class Context {
        final String module;
        final Path basedir;
        final Map<Integer, Path> outs = new TreeMap<>();
        final String reproduceGoal;
        final String odrustVersion;
        JsonArray shards;
        /** odrust:diagnose's verdicts ({@code polluted_state}) a new report keeps, by test. */
        final Map<String, JsonElement> pollutedStates = new TreeMap<>();

        /**
         * @param out this run's output directory, whose {@code orders/} hold its experiments' order files
         * @param reproduceGoal how to invoke odrust's reproduce goal on this project, e.g. {@code odrust:reproduce}
         * @param odrustVersion the engine's version, which made the report (odrust:repair refuses a report of another)
         */
        public Context(String module, Path basedir, Path out, String reproduceGoal, String odrustVersion) {
            this.module = module;
            this.basedir = basedir;
            this.outs.put(0, out);
            this.reproduceGoal = reproduceGoal;
            this.odrustVersion = odrustVersion;
        }

        /** odrust:merge: the output directory of shard {@code index}'s run. */
        public Context shard(int index, Path out) {
            outs.put(index, out);
            return this;
        }

        /** odrust:merge: the shards as {@code detect_merge} answered them. */
        public Context shards(JsonArray shards) {
            this.shards = shards;
            return this;
        }

        /**
         * A run that continues the recorded one (odrust:minimize, {@code -Dodrust.resume}): the
         * reports it writes keep odrust:diagnose's {@code polluted_state} of each flaky test in
         * {@code report} (report.json as it is now, when this odrust wrote it) that is still flaky.
         */
        public Context keepingDiagnoses(Path report) {
            pollutedStates.putAll(pollutedStates(report, odrustVersion));
            return this;
        }
    }

    /**
     * Builds report.json from {@code summary} and writes it, report.html and
     * surefire-reports/TEST-odrust.xml under {@code out}; returns report.json's object.
     *
     * @param complete false for a report written while the run goes on (or left by one that was killed)
     */
    public static JsonObject write(Engine engine, JsonObject summary, Context context, boolean complete, Path out)
            throws IOException {
        ReportRequest.Build build = new ReportRequest.Build();
        build.summary = summary;
        build.module = context.module;
        build.odrustVersion = context.odrustVersion;
        build.complete = complete;
        build.reproduceGoal = context.reproduceGoal;
        context.outs.forEach((index, dir) -> build.orders.put(index, ordersDir(context.basedir, dir)));
        build.shards = context.shards;
        JsonObject report = write(engine, ReportRequest.build(build), out);
        return withDiagnoses(report, context.pollutedStates) ? rewrite(engine, report, out) : report;
    }

    /**
     * Each flaky test's {@code polluted_state} in {@code report} (report.json), by test; none when
     * the file is missing, unreadable or written by another odrust version than {@code version}.
     */
    static Map<String, JsonElement> pollutedStates(Path report, String version) {
        Map<String, JsonElement> states = new TreeMap<>();
        try {
            JsonObject json = JsonParser.parseString(new String(Files.readAllBytes(report), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            if (!version.equals(json.get("odrust_version").getAsString()) || !json.has("flaky")) {
                return states;
            }
            for (JsonElement f : json.getAsJsonArray("flaky")) {
                JsonObject entry = f.getAsJsonObject();
                if (entry.has("polluted_state") && !entry.get("polluted_state").isJsonNull()) {
                    states.put(entry.get("test").getAsString(), entry.get("polluted_state"));
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            states.clear(); // nothing to keep
        }
        return states;
    }

    /** Adds each test's {@code polluted_state} to its flaky entry of {@code report}; whether any was added. */
    private static boolean withDiagnoses(JsonObject report, Map<String, JsonElement> states) {
        boolean added = false;
        if (states.isEmpty() || !report.has("flaky")) {
            return false;
        }
        for (JsonElement f : report.getAsJsonArray("flaky")) {
            JsonObject entry = f.getAsJsonObject();
            JsonElement state = states.get(entry.get("test").getAsString());
            if (state != null
                    && (!entry.has("polluted_state")
                            || entry.get("polluted_state").isJsonNull())) {
                entry.add("polluted_state", state.deepCopy());
                added = true;
            }
        }
        return added;
    }

    /** Writes {@code report} (report.json's object, e.g. with a diagnosis added) again, with its HTML and XML. */
    public static JsonObject rewrite(Engine engine, JsonObject report, Path out) throws IOException {
        return write(engine, ReportRequest.rewrite(report), out);
    }

    private static JsonObject write(Engine engine, ReportRequest request, Path out) throws IOException {
        ReportTexts texts = engine.call("report", request, ReportTexts.class);
        atomicWrite(out.resolve("report.json"), texts.json);
        atomicWrite(out.resolve("report.html"), texts.html);
        atomicWrite(out.resolve("surefire-reports").resolve("TEST-odrust.xml"), texts.xml);
        return JsonParser.parseString(texts.json).getAsJsonObject();
    }

    /** {@code out/orders} as the user sees it: relative to the module's directory when inside it, {@code /}-separated. */
    static String ordersDir(Path basedir, Path out) {
        Path dir = out.resolve("orders").toAbsolutePath();
        Path base = basedir.toAbsolutePath();
        return (dir.startsWith(base) ? base.relativize(dir) : dir).toString().replace('\\', '/');
    }

    /** Writes {@code text} to a temporary file beside {@code file}, then moves it over {@code file}. */
    public static void atomicWrite(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
