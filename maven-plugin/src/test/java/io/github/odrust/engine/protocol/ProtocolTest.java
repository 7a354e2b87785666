package io.github.odrust.engine.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.ReportWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java types of the engine's responses against the real engine (loaded over JNI, as in
 * EngineTest): every op the plugin calls, with a realistic request; each response is bound to its
 * type, serialized back with {@link io.github.odrust.engine.Json#WIRE}, and must give exactly the JSON tree the engine
 * sent. A field renamed, added or dropped on the Rust side fails here, not in a user's build.
 *
 * <p>Not covered: {@code flake_rate} (the plugin does not call it; its answer is the
 * {@link FlakeRate} of a summary, checked here), {@code selftest_panic} (never answers).
 */
class ProtocolTest {
    private static Engine engine;

    @BeforeAll
    static void load() {
        engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
    }

    /** Binds {@code raw} to {@code type} and checks that nothing is lost or added on the way back. */
    private static <T> T roundTrip(JsonObject raw, Class<T> type) {
        T typed = Json.WIRE.fromJson(raw, type);
        assertEquals(
                raw,
                Json.WIRE.toJsonTree(typed),
                type.getSimpleName() + " does not mirror the engine's response " + raw);
        return typed;
    }

    private static JsonObject json(String text) {
        return JsonParser.parseString(text.replace('\'', '"')).getAsJsonObject();
    }

    /**
     * Setter before brittle and victim before polluter in the original order, so all pass there; the
     * cleaner runs after the polluter in its class, so reversing that class fails the victim.
     */
    private static JsonObject suite() {
        return json(
                "{'schema_version':1,'module':'g:a','classes':["
                        + "{'class':'p.S','framework':'junit4','reorderable':true,'tests':['p.S#setter'],'dynamic':[]},"
                        + "{'class':'p.T','framework':'junit5','reorderable':true,'tests':['p.T#brittle','p.T#other'],'dynamic':[]},"
                        + "{'class':'p.V','framework':'junit4','reorderable':true,'tests':['p.V#victim'],'dynamic':[]},"
                        + "{'class':'p.P','framework':'junit5','reorderable':true,'tests':['p.P#polluter','p.P#cleaner'],'dynamic':[]},"
                        + "{'class':'p.X','framework':'junit4','reorderable':false,'tests':['p.X#x1','p.X#x2'],'dynamic':[]}]}");
    }

    @Test
    void version() {
        VersionResponse v = roundTrip(engine.call("version", new JsonObject()), VersionResponse.class);
        assertEquals("0.1.0", v.engineVersion);
    }

    @Test
    void vocabulary() {
        Vocabulary v = roundTrip(engine.call("vocabulary", new JsonObject()), Vocabulary.class);
        assertTrue(v.strategies.containsAll(v.systematicStrategies), v.strategies.toString());
        assertTrue(v.strategies.contains(v.detectDefaults.strategy));
        assertTrue(v.experimentKinds.containsAll(v.minimizeKinds));
        assertTrue(v.errorCodes.containsAll(v.userErrorCodes));
        assertFalse(v.userErrorCodes.contains("panic"));
    }

    @Test
    void planOrderWithReasonsAndWarnings() {
        JsonObject req = new JsonObject();
        req.add("suite", suite());
        // p.X is not reorderable (x2 before x1 cuts it), p.V#victim repeats, p.T.other is the dotted form.
        req.addProperty("order_text", "p.X#x2\np.X#x1\np.V#victim\np.V#victim\np.T.other\n");
        req.addProperty("source", "orders/x.txt");
        PlanOrderResponse plan = roundTrip(engine.call("plan_order", req), PlanOrderResponse.class);
        assertTrue(plan.segments.stream().anyMatch(s -> s.reason != null), "a segment with a reason");
        assertTrue(plan.segments.stream().anyMatch(s -> s.reason == null), "a segment without");
        assertFalse(plan.warnings.isEmpty());
    }

    @Test
    void checkRunHonouredAndNot() {
        JsonObject req = json("{'requested':['p.A#a','p.A#b'],'ran':['p.A#a','p.A#b']}");
        RunCheck ok = roundTrip(engine.call("check_run", req), RunCheck.class);
        assertTrue(ok.honoured);
        req = json("{'requested':['p.A#a','p.A#b','p.A#c'],'ran':['p.A#b','p.A#x']}");
        RunCheck bad = roundTrip(engine.call("check_run", req), RunCheck.class);
        assertNotNull(bad.firstDifference);
        assertFalse(bad.missing.isEmpty());
        assertFalse(bad.unexpected.isEmpty());
    }

    @Test
    void surefireReportsAndTheirComparison(@TempDir Path dir) throws Exception {
        Files.write(
                dir.resolve("TEST-p.A.xml"),
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                + "<testsuite name=\"p.A\" tests=\"4\" failures=\"1\" errors=\"1\" skipped=\"1\">\n"
                                + "  <testcase classname=\"p.A\" name=\"a\" time=\"0.01\"/>\n"
                                + "  <testcase classname=\"p.A\" name=\"b\" time=\"0.01\"><failure message=\"expected:&lt;1&gt;\" type=\"java.lang.AssertionError\">trace</failure></testcase>\n"
                                + "  <testcase classname=\"p.A\" name=\"c\" time=\"0.01\"><error type=\"java.lang.IllegalStateException\">trace</error></testcase>\n"
                                + "  <testcase classname=\"p.A\" name=\"d\" time=\"0\"><skipped message=\"off\"/></testcase>\n"
                                + "</testsuite>\n")
                        .getBytes(StandardCharsets.UTF_8));
        JsonObject req = new JsonObject();
        req.addProperty("dir", dir.toString());
        SurefireReports reports = roundTrip(engine.call("read_surefire_reports", req), SurefireReports.class);
        assertEquals(4, reports.tests.size());

        JsonObject compare = new JsonObject();
        compare.add("expected", Json.WIRE.toJsonTree(reports.tests));
        compare.add(
                "actual",
                json("{'a':[{'test':'p.A#a','outcome':'pass'},{'test':'p.A#b','outcome':'pass'},"
                                + "{'test':'p.A#c','outcome':'error'},{'test':'p.A#e','outcome':'pass'}]}")
                        .get("a"));
        Comparison c = roundTrip(engine.call("compare_outcomes", compare), Comparison.class);
        assertFalse(c.same);
        assertFalse(c.differences.isEmpty());
        assertFalse(c.onlyExpected.isEmpty());
        assertFalse(c.onlyActual.isEmpty());
    }

    @Test
    void detectionWithARandomStrategyItsSummaryAndItsReport(@TempDir Path dir) {
        DetectConfig config = config("reverse-passing", 6);
        Detection d = detect(config, false);
        Summary summary = roundTrip(d.summary, Summary.class);
        assertTrue(d.phases.contains("minimize"), "minimization ran: " + d.phases);
        Summary.FlakyTest victim = find(summary, "p.V#victim");
        assertEquals("victim", victim.kind);
        assertEquals(List.of(List.of("p.P#polluter")), victim.polluters);
        assertEquals(List.of("p.P#cleaner"), victim.cleaners.get("p.P#polluter"));
        assertNotNull(victim.flakeRate);
        assertNotNull(victim.alone);
        Summary.FlakyTest brittle = find(summary, "p.T#brittle");
        assertEquals("brittle", brittle.kind);
        assertEquals(List.of(List.of("p.S#setter")), brittle.stateSetters);
        assertFalse(summary.failing.isEmpty(), "p.X#x2 fails everywhere");

        JsonObject report = ReportWriter.report(
                d.summary, "g:a", dir, dir.resolve("target/odrust"), "odrust:reproduce", true, "0.1.0");
        JsonObject req = new JsonObject();
        req.add("report", report);
        Rendered rendered = roundTrip(engine.call("render_report", req), Rendered.class);
        assertTrue(rendered.html.contains("p.V#victim") && rendered.xml.contains("victim"));
    }

    @Test
    void detectionWithASystematicStrategyHasAPlanAndPairs() {
        DetectConfig config = config("tuscan", Integer.MAX_VALUE);
        config.minimize = false;
        Detection d = detect(config, false);
        assertNotNull(d.plan, "detect_next gave the schedule's plan");
        assertNotNull(d.plan.predictedMs);
        Summary summary = roundTrip(d.summary, Summary.class);
        assertNotNull(summary.pairs);
        assertNotNull(summary.plan);
    }

    @Test
    void dependenceAwareComparesItsPlanWithTuscans() {
        DetectConfig config = config("dependence-aware", Integer.MAX_VALUE);
        config.minimize = false;
        config.dependenceFree = List.of("p.Log#*");
        Detection d = detect(config, true);
        assertNotNull(d.plan);
        assertTrue(d.plan.tuscan != null || d.plan.usesTuscan(), "compared with tuscan");
        assertNotNull(d.plan.unrecorded);
        assertNotNull(d.plan.fields);
        roundTrip(d.summary, Summary.class);
    }

    @Test
    void targetedSaysWhatItsRoundsCoverAndWhatMayHaveEscaped() {
        DetectConfig config = config("targeted", 8);
        config.minimize = false;
        assertTrue(config.recordBaseline, "the engine's vocabulary says targeted records its baseline");
        Detection d = detect(config, true);
        assertNotNull(d.targeted, "detect_next gave the targeted plan with the first round");
        assertTrue(d.targeted.pairs > 0 && d.targeted.orders > 0, d.targeted.text);
        Summary summary = roundTrip(d.summary, Summary.class);
        assertNotNull(summary.coverage);
        assertNotNull(summary.coverage.statePairs);
        assertEquals(summary.coverage.statePairs.total, summary.coverage.statePairs.covered, summary.coverage.text);
        assertEquals(2, summary.coverage.escape.size());
        assertTrue(summary.coverage.text.contains("chance to pass all 8 random rounds"), summary.coverage.text);
        assertNotNull(summary.targeted);
        assertEquals("victim", find(summary, "p.V#victim").kind);
    }

    private static DetectConfig config(String strategy, int rounds) {
        DetectConfig config = DetectConfig.resolve(
                new DetectConfig.Given(), null, 0, engine.call("vocabulary", new JsonObject(), Vocabulary.class));
        config.strategy = strategy;
        config.recordBaseline = "targeted".equals(strategy) || "dependence-aware".equals(strategy);
        config.rounds = rounds;
        config.seed = 42;
        config.baselineTries = 2;
        config.aloneRuns = 3;
        return config;
    }

    private static Summary.FlakyTest find(Summary summary, String test) {
        return summary.flaky.stream()
                .filter(f -> f.test.equals(test))
                .findFirst()
                .orElseThrow(() -> new AssertionError(test + " not found in " + Json.WIRE.toJson(summary)));
    }

    /** What a detection run saw: the summary as sent, the first plan, the phases it went through. */
    private static final class Detection {
        JsonObject summary;
        PlanInfo plan;
        TargetedInfo targeted;
        List<String> phases = new ArrayList<>();
    }

    /** Runs detection to the end over the simulated suite, checking every detect_next answer. */
    private static Detection detect(DetectConfig config, boolean record) {
        Detection d = new Detection();
        JsonArray history = new JsonArray();
        for (int step = 0; step < 2000; step++) {
            JsonObject request = new JsonObject();
            request.add("config", config.toJson());
            request.add("suite", suite());
            request.add("history", history);
            JsonObject raw = engine.call("detect_next", request);
            NextStep next = roundTrip(raw, NextStep.class);
            if (d.plan == null && next.plan != null) {
                d.plan = next.plan;
            }
            if (d.targeted == null && next.targeted != null) {
                d.targeted = next.targeted;
            }
            if (!d.phases.contains(next.progress.phase)) {
                d.phases.add(next.progress.phase);
            }
            if (next.experiment == null) {
                d.summary = engine.call("detect_summary", request);
                return d;
            }
            JsonObject result = raw.getAsJsonObject("experiment").deepCopy();
            result.add("results", run(next.experiment.order, record && "baseline".equals(next.experiment.kind)));
            if (record && "baseline".equals(next.experiment.kind)) {
                result.add(
                        "class_state",
                        json("{'a':[{'class':'p.P','reads':[],'writes':['p.G#STATE']}]}")
                                .get("a"));
            }
            result.addProperty("honoured", true);
            result.addProperty("millis", 500 + 10 * next.experiment.order.size());
            result.add(
                    "time",
                    json("{'jvm_ms':480,'boot_ms':60,'setup_ms':300,'tests_ms':70,'exit_ms':50,'odrust_ms':20}"));
            history.add(result);
        }
        throw new AssertionError("detection did not end");
    }

    /**
     * The simulated tests: the polluter dirties a static that the cleaner resets and the victim
     * needs clean; the brittle needs the setter to have run; p.X#x2 always fails.
     */
    private static JsonArray run(List<String> order, boolean record) {
        boolean polluted = false;
        boolean set = false;
        JsonArray results = new JsonArray();
        for (String test : order) {
            boolean pass = true;
            List<String> reads = new ArrayList<>();
            List<String> writes = new ArrayList<>();
            switch (test) {
                case "p.P#polluter":
                    polluted = true;
                    writes.add("p.G#STATE");
                    break;
                case "p.P#cleaner":
                    polluted = false;
                    writes.add("p.G#STATE");
                    break;
                case "p.V#victim":
                    pass = !polluted;
                    reads.add("p.G#STATE");
                    break;
                case "p.S#setter":
                    set = true;
                    writes.add("p.G#FLAG");
                    break;
                case "p.T#brittle":
                    pass = set;
                    reads.add("p.G#FLAG");
                    break;
                case "p.X#x2":
                    pass = false;
                    reads.add("p.Log#LOG");
                    break;
                default:
                    break;
            }
            JsonObject r = new JsonObject();
            r.addProperty("test", test);
            r.addProperty("outcome", pass ? "pass" : "fail");
            r.addProperty("message", pass ? null : "expected:<true> but was:<false>");
            r.addProperty("time_ms", 10 + test.length());
            // p.X#x1 stays unrecorded: a dependence-aware plan counts it.
            if (record && !"p.X#x1".equals(test)) {
                r.add("reads", Json.WIRE.toJsonTree(reads));
                r.add("writes", Json.WIRE.toJsonTree(writes));
            }
            results.add(r);
        }
        return results;
    }

    @Test
    void aFieldTheEngineLeavesOutStaysOutAndANullItSendsStaysNull() {
        JsonElement plan = Json.WIRE.toJsonTree(new PlanInfo());
        assertFalse(plan.getAsJsonObject().has("tuscan"), plan.toString());
        JsonElement failing = Json.WIRE.toJsonTree(new Summary.FailingTest());
        assertTrue(failing.getAsJsonObject().get("message").isJsonNull(), failing.toString());
    }

    @Test
    void repairNextRunsThenVerifiesThenPatches() {
        JsonObject request = json(
                "{'target':{'test':'p.V#v','kind':'victim','polluters':[['p.P#p']],"
                        + "'cleaners':{'p.P#p':['p.C#c']},'original_order':['p.V#v','p.P#p'],"
                        + "'baseline':[{'test':'p.V#v','outcome':'pass'},{'test':'p.P#p','outcome':'pass'}],"
                        + "'sources':[{'test':'p.C#c','statements':1,'placements':['setup','test']}],'fingerprint':'f'},'history':[]}");
        RepairStep first = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertEquals("run", first.step);
        assertEquals("unpatched", first.experiment.check);
        assertEquals(List.of("p.P#p", "p.V#v"), first.experiment.order);
        JsonArray history = new JsonArray();
        String[][] runs = {
            {"unpatched", "fail", "p.P#p,p.V#v"},
            {"failing-order", "pass", "p.P#p,p.V#v"},
            {"alone", "pass", "p.V#v"},
            {"original-order", "pass", "p.V#v,p.P#p"}
        };
        for (String[] r : runs) {
            JsonObject rec = new JsonObject();
            rec.addProperty("id", history.size() + 1);
            rec.addProperty("test", "p.V#v");
            boolean patched = !r[0].equals("unpatched");
            rec.addProperty("source", patched ? "p.C#c" : null);
            rec.addProperty("polluter", patched ? "p.P#p" : null);
            rec.addProperty("placement", patched ? "setup" : null);
            rec.add("statements", patched ? json("{'a':[0]}").get("a") : new JsonArray());
            rec.addProperty("check", r[0]);
            rec.add("order", Json.WIRE.toJsonTree(List.of(r[2].split(","))));
            rec.addProperty("fingerprint", "f");
            JsonArray results = new JsonArray();
            for (String t : r[2].split(",")) {
                results.add(json("{'test':'" + t + "','outcome':'" + (t.equals("p.V#v") ? r[1] : "pass") + "'}"));
            }
            rec.add("results", results);
            history.add(rec);
        }
        request.add("history", history);
        RepairStep done = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertTrue(done.isDone());
        assertEquals("patched", done.outcome.status);
        assertEquals("cleaner", done.outcome.source.kind);
        assertEquals(List.of(0), done.outcome.statements);
        assertEquals(
                List.of("failing-order", "alone", "original-order"),
                done.outcome.verification.stream().map(c -> c.check).collect(java.util.stream.Collectors.toList()));
        assertEquals(4, done.outcome.experiments);
    }

    @Test
    void diagnoseNextAsksForTheFailingCaptureFirstAndAnUnexplainedVictimIsAVerdict() {
        JsonObject request = json("{'target':{'test':'p.V#v','kind':'victim','polluters':[['p.P#p']],"
                + "'fingerprint':'f'},'history':[],'next_id':3}");
        DiagnoseStep first = roundTrip(engine.call("diagnose_next", request), DiagnoseStep.class);
        assertEquals("run", first.step);
        assertEquals(3, first.experiment.id);
        assertEquals("capture-failing", first.experiment.kind);
        assertEquals(List.of("p.P#p", "p.V#v"), first.experiment.order);
        assertEquals(1, first.experiment.occurrence);
        request.getAsJsonObject("target").add("polluters", new JsonArray());
        DiagnoseStep done = roundTrip(engine.call("diagnose_next", request), DiagnoseStep.class);
        assertTrue(done.isDone());
        assertEquals("unexplained", done.outcome.get("status").getAsString());
    }

    @Test
    void idNextPlansTheCleanRunFirstAndIdReportRendersAnOutcome() {
        JsonObject request = json("{'tests':['p.A#a','p.B#b'],'seeds':[5,6],'clean_runs':1,'fingerprint':'f',"
                + "'history':[],'next_id':1}");
        IdStep first = roundTrip(engine.call("id_next", request), IdStep.class);
        assertEquals("run", first.step);
        assertEquals(1, first.experiment.id);
        assertEquals("clean", first.experiment.kind);
        assertEquals(List.of("p.A#a", "p.B#b"), first.experiment.order);
        assertEquals(null, first.experiment.seed);
        assertEquals(0, first.experiment.only.size());
        JsonArray history = new JsonArray();
        for (int id = 1; id <= 3; id++) {
            JsonObject record =
                    json("{'id':" + id + ",'kind':'" + (id == 1 ? "clean" : "shuffled") + "','order':['p.A#a','p.B#b'],"
                            + "'only':[],'fingerprint':'f','count':2,'calls':[],'results':[{'test':'p.A#a','outcome':'pass'},"
                            + "{'test':'p.B#b','outcome':'pass'}]}");
            if (id > 1) {
                record.addProperty("seed", id + 3);
            }
            history.add(record);
        }
        request.add("history", history);
        request.addProperty("next_id", 4);
        IdStep done = roundTrip(engine.call("id_next", request), IdStep.class);
        assertTrue(done.isDone());
        assertEquals(0, done.outcome.getAsJsonArray("tests").size(), "nothing failed under a seed: no ID test");
        JsonObject report = new JsonObject();
        report.addProperty("module", "g:a");
        report.add("outcome", done.outcome);
        report.addProperty("reproduce_command", "mvn odrust:run-order -Dodrust.order={test} -Dodrust.id.seed={seed}");
        JsonObject rendered = engine.call("id_report", report);
        assertTrue(rendered.get("html").getAsString().contains("g:a"), rendered.toString());
        assertTrue(rendered.get("xml").getAsString().contains("<testsuite"), rendered.toString());
    }
}
