package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.TestModule;
import io.github.odrust.maven.fork.ManifestJar;
import io.github.odrust.maven.run.OrderRunner;
import io.github.odrust.maven.run.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The executor side of detection: asks the engine for the next experiment, runs its order in a
 * fresh JVM, appends the outcome to the {@link ExperimentLog}, and repeats until the engine has
 * nothing left to ask. The engine decides everything; this class only runs, records and reports
 * progress.
 */
public final class Detector {
    private final TestModule module;
    private final Engine engine;
    private final JsonObject suite;
    private final DetectConfig config;
    private final ExperimentLog history;
    private final Path out;
    private final Log log;
    private final long budgetMillis;

    public Detector(TestModule module, Engine engine, JsonObject suite, DetectConfig config, ExperimentLog history, Path out,
            long budgetMillis, Log log) {
        this.module = module;
        this.engine = engine;
        this.suite = suite;
        this.config = config;
        this.history = history;
        this.out = out;
        this.budgetMillis = budgetMillis;
        this.log = log;
    }

    /** Runs experiments until the plan is complete; returns the engine's summary. */
    public JsonObject run() throws MojoExecutionException, IOException {
        long start = System.nanoTime();
        long roundMillis = 0;
        int roundsTimed = 0;
        // One classpath jar for every experiment: the module's classpath does not change.
        Path jar = out.resolve("detect").resolve("classpath.jar");
        ManifestJar.write(jar, module.classpath, "io.github.odrust.agent.Main");
        // One engine call per experiment: its answer gives the progress after the last experiment
        // and the next one to run.
        JsonObject next = engine.call("detect_next", request());
        Path recordOptions = null;
        boolean planShown = false;
        if ("dependence-aware".equals(config.strategy)) {
            recordOptions = out.resolve("detect").resolve("record-options.txt");
            RecordOptions.write(recordOptions, module, config.dependenceInclude);
        }
        while (true) {
            if (!planShown && next.has("plan") && !next.get("plan").isJsonNull()) {
                planShown = true;
                log.info(planLine(next.getAsJsonObject("plan")));
            }
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            if (budgetMillis > 0 && elapsed >= budgetMillis && !config.stopRounds) {
                config.stopRounds = true;
                log.info("time budget of " + (budgetMillis >= 1000 ? budgetMillis / 1000 + " s" : budgetMillis + " ms")
                        + " used: no new round or explanation starts; pending confirmations and alone runs finish"
                        + " (resume later with -Dodrust.resume=true)");
                next = engine.call("detect_next", request());
            }
            JsonElement experiment = next.get("experiment");
            if (experiment == null || experiment.isJsonNull()) {
                break;
            }
            JsonObject exp = experiment.getAsJsonObject();
            int id = exp.get("id").getAsInt();
            Path orderFile = writeOrder(exp);
            long t0 = System.nanoTime();
            OrderRunner runner = new OrderRunner(module, engine, suite, out.resolve("detect").resolve("exp-" + id), log)
                    .quiet()
                    .classpathJar(jar);
            // dependence-aware: the baseline also records the static fields each test reads and writes.
            if (recordOptions != null && "baseline".equals(str(exp, "kind"))) {
                runner.recording(recordOptions);
            }
            RunResult result = runner.run(String.join("\n", strings(exp.getAsJsonArray("order"))), orderFile.getFileName().toString());
            long millis = (System.nanoTime() - t0) / 1_000_000;
            if (!Boolean.TRUE.equals(result.honoured)) {
                throw new MojoExecutionException("odrust could not run experiment " + id + " in the order it planned ("
                        + result.firstDifference + "); stopping rather than report outcomes of another order. Details: "
                        + out.resolve("detect").resolve("exp-" + id).resolve("result.json"));
            }
            history.append(record(exp, result, millis));
            if (recordOptions != null && "baseline".equals(str(exp, "kind")) && !result.results.isEmpty()
                    && result.results.stream().allMatch(t -> t.reads == null && t.writes == null)) {
                log.warn("dependence-aware: the baseline recorded no static field access at all (the jvm-agent's recording"
                        + " did not start; its reason is in " + out.resolve("detect").resolve("exp-" + id).resolve("jvm-1.log")
                        + "): every pair of tests counts as possibly dependent, as in tuscan");
            }
            if ("round".equals(str(exp, "kind"))) {
                roundMillis += millis;
                roundsTimed++;
            }
            next = engine.call("detect_next", request());
            log.info(progressLine(exp, next.getAsJsonObject("progress"), millis, roundsTimed == 0 ? 0 : roundMillis / roundsTimed));
        }
        return engine.call("detect_summary", request());
    }

    private JsonObject request() {
        JsonObject r = new JsonObject();
        r.add("config", config.toJson());
        r.add("suite", suite);
        r.add("history", history.history());
        return r;
    }

    private Path writeOrder(JsonObject exp) throws IOException {
        Path file = out.resolve("orders").resolve("exp-" + exp.get("id").getAsInt() + ".txt");
        Files.createDirectories(file.getParent());
        StringBuilder text = new StringBuilder("# odrust experiment " + exp.get("id").getAsInt() + ": " + str(exp, "kind"));
        if (exp.has("round") && !exp.get("round").isJsonNull()) {
            text.append(" round ").append(exp.get("round").getAsInt()).append(" (").append(str(exp, "strategy")).append(')');
        }
        text.append(", seed=").append(config.seed).append('\n');
        for (String t : strings(exp.getAsJsonArray("order"))) {
            text.append(t).append('\n');
        }
        Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static JsonObject record(JsonObject exp, RunResult result, long millis) {
        JsonObject r = exp.deepCopy();
        JsonArray results = new JsonArray();
        for (RunResult.TestResult t : result.results) {
            JsonObject o = new JsonObject();
            o.addProperty("test", t.test);
            o.addProperty("outcome", t.outcome);
            // A failure without a message is still named: by its exception class.
            o.addProperty("message", t.message != null ? t.message : t.exception);
            if (t.timeMs != null) {
                o.addProperty("time_ms", t.timeMs);
            }
            if (t.reads != null) {
                o.add("reads", Engine.GSON.toJsonTree(t.reads));
            }
            if (t.writes != null) {
                o.add("writes", Engine.GSON.toJsonTree(t.writes));
            }
            results.add(o);
        }
        r.add("results", results);
        if (!result.classStates.isEmpty()) {
            r.add("class_state", Engine.GSON.toJsonTree(result.classStates));
        }
        r.addProperty("honoured", result.honoured);
        r.addProperty("millis", millis);
        return r;
    }

    /**
     * The plan of a systematic strategy, printed before its first round: orders, test executions
     * and predicted time, and for dependence-aware what it saves over tuscan.
     */
    static String planLine(JsonObject plan) {
        StringBuilder b = new StringBuilder("plan: ").append(str(plan, "strategy")).append(": ")
                .append(plan.get("orders").getAsLong()).append(" orders, ")
                .append(plan.get("executions").getAsLong()).append(" test executions, ")
                .append(plan.get("pairs").getAsLong()).append(" pairs to cover");
        if (plan.has("predicted_ms") && !plan.get("predicted_ms").isJsonNull()) {
            b.append(", predicted ").append(seconds(plan.get("predicted_ms").getAsLong()))
                    .append(" (").append(seconds(plan.get("cost0_ms").getAsLong())).append(" per JVM start + test times, from the baseline)");
        }
        if (plan.has("uses_tuscan") && plan.get("uses_tuscan").getAsBoolean()) {
            b.append("; tuscan's orders, because covering only the ").append(plan.get("dependent_pairs").getAsLong())
                    .append(" pairs that may interact was predicted to cost more");
        } else if (plan.has("tuscan") && !plan.get("tuscan").isJsonNull()) {
            JsonObject t = plan.getAsJsonObject("tuscan");
            b.append("; tuscan would run ").append(t.get("orders").getAsLong()).append(" orders, ")
                    .append(t.get("executions").getAsLong()).append(" test executions, ")
                    .append(t.get("pairs").getAsLong()).append(" pairs");
            if (t.has("predicted_ms") && !t.get("predicted_ms").isJsonNull()) {
                b.append(", predicted ").append(seconds(t.get("predicted_ms").getAsLong()));
            }
        }
        if (plan.has("unrecorded") && plan.get("unrecorded").getAsInt() > 0) {
            b.append("; ").append(plan.get("unrecorded").getAsInt())
                    .append(" tests have no recorded field accesses and are treated as touching everything");
        }
        return b.toString();
    }

    private static String seconds(long ms) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private String progressLine(JsonObject exp, JsonObject progress, long millis, long avgRoundMillis) {
        String kind = str(exp, "kind");
        StringBuilder b = new StringBuilder(String.format("exp %-3d ", exp.get("id").getAsInt()));
        int done = progress.get("rounds_done").getAsInt();
        int total = progress.get("rounds_total").getAsInt();
        if ("round".equals(kind)) {
            b.append(String.format("round %d/%d  %-20s", exp.get("round").getAsInt(), total, str(exp, "strategy")));
        } else {
            JsonArray targets = exp.getAsJsonArray("targets");
            b.append(String.format("%-16s %-30s", kind, targets == null || targets.size() == 0 ? "" : shortId(targets.get(0).getAsString())));
        }
        b.append(String.format(" seed=%d  %5.1fs", config.seed, millis / 1000.0));
        if (avgRoundMillis > 0 && done < total && !config.stopRounds) {
            b.append(String.format("  ~%ds left", (total - done) * avgRoundMillis / 1000));
        }
        b.append(String.format("  found %d OD, %d NOD", progress.get("od_found").getAsInt(), progress.get("nod_found").getAsInt()));
        return b.toString();
    }

    private static String shortId(String id) {
        int dot = id.lastIndexOf('.', id.indexOf('#') < 0 ? id.length() : id.indexOf('#'));
        return dot < 0 ? id : id.substring(dot + 1);
    }

    static String str(JsonObject o, String key) {
        return o.has(key) && !o.get(key).isJsonNull() ? o.get(key).getAsString() : null;
    }

    static Iterable<String> strings(JsonArray a) {
        java.util.List<String> l = new java.util.ArrayList<>();
        a.forEach(e -> l.add(e.getAsString()));
        return l;
    }
}
