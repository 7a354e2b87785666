package io.github.odrust.maven.explain;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.engine.protocol.Vocabulary;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.ExperimentLog;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoFailureException;

/**
 * The order-dependent tests odrust:minimize explains: the one it names, after those a recorded
 * run already explained, each a victim or brittle of that run.
 */
public final class MinimizeTargets {
    private MinimizeTargets() {}

    /** Explains {@code test} (the value of {@code -Dodrust.test}) and only it. */
    public static void configure(DetectConfig config, String test) throws MojoFailureException {
        if (test == null || test.trim().isEmpty()) {
            throw new MojoFailureException("name the test to explain: -Dodrust.test=pkg.Class#method (a victim or brittle"
                    + " listed in target/odrust/report.json by odrust:detect)");
        }
        config.minimize = true;
        config.minimizeOnly = List.of(test.trim());
    }

    /** Keeps the earlier explanations first, then checks each test: see the two methods below. */
    public static void prepare(Engine engine, DetectConfig config, JsonObject suite, ExperimentLog history)
            throws MojoFailureException {
        keepEarlierExplanations(config, history, engine.call("vocabulary", new JsonObject(), Vocabulary.class).minimizeKinds);
        check(engine, config, suite, history);
    }

    /**
     * When only some tests are to be explained, the tests a recorded run already explained come
     * first, in the order it explained them: the engine replays the history against its plan, and
     * that plan must contain those experiments.
     */
    static void keepEarlierExplanations(DetectConfig config, ExperimentLog history, List<String> minimizeKinds) {
        if (config.minimizeOnly.isEmpty()) {
            return;
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (JsonElement e : history.history()) {
            // A record echoes the experiment it ran.
            Experiment record = Engine.GSON.fromJson(e, Experiment.class);
            if (minimizeKinds.contains(record.kind) && !record.targets.isEmpty()) {
                ordered.add(record.targets.get(0));
            }
        }
        ordered.addAll(config.minimizeOnly);
        config.minimizeOnly = new ArrayList<>(ordered);
    }

    /** Each test named for minimization must be an order-dependent test of the recorded run. */
    static void check(Engine engine, DetectConfig config, JsonObject suite, ExperimentLog history) throws MojoFailureException {
        if (config.minimizeOnly.isEmpty()) {
            return;
        }
        JsonObject request = new JsonObject();
        request.add("config", config.toJson());
        request.add("suite", suite);
        request.add("history", history.history());
        List<String> od = new ArrayList<>();
        for (Summary.FlakyTest f : engine.call("detect_summary", request, Summary.class).flaky) {
            if (f.isOrderDependent()) {
                od.add(f.test);
            }
        }
        for (String t : config.minimizeOnly) {
            if (!od.contains(t)) {
                throw new MojoFailureException("odrust.test=" + t + " is not an order-dependent test of the detection run in"
                        + " target/odrust/detect/; " + (od.isEmpty() ? "that run found none." : "it found: " + String.join(", ", od)));
            }
        }
    }
}
