package io.github.odrust.engine.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineException;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.detect.DetectConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
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
        assertEquals(ReportRequest.SCHEMA_VERSION, v.reportSchemaVersion, "the report.json odrust:repair reads");
        assertEquals(Summary.FlakyTest.KINDS, v.flakyKinds, "the kinds odrust:repair accepts in report.json");
    }

    @Test
    void planOrderWithReasonsAndWarnings() {
        // p.X is not reorderable (x2 before x1 cuts it), p.V#victim repeats, p.T.other is the dotted form.
        PlanOrderRequest req = new PlanOrderRequest(
                Suite.of(suite()), "p.X#x2\np.X#x1\np.V#victim\np.V#victim\np.T.other\n", "orders/x.txt");
        PlanOrderResponse plan = roundTrip(engine.call("plan_order", req), PlanOrderResponse.class);
        assertTrue(plan.segments.stream().anyMatch(s -> s.reason != null), "a segment with a reason");
        assertTrue(plan.segments.stream().anyMatch(s -> s.reason == null), "a segment without");
        assertFalse(plan.warnings.isEmpty());
    }

    @Test
    void checkRunHonouredAndNot() {
        CheckRunRequest req = new CheckRunRequest(List.of("p.A#a", "p.A#b"), List.of("p.A#a", "p.A#b"));
        RunCheck ok = roundTrip(engine.call("check_run", req), RunCheck.class);
        assertTrue(ok.honoured);
        req = new CheckRunRequest(List.of("p.A#a", "p.A#b", "p.A#c"), List.of("p.A#b", "p.A#x"));
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
        SurefireRequest req = new SurefireRequest(dir.toString());
        SurefireReports reports = roundTrip(engine.call("read_surefire_reports", req), SurefireReports.class);
        assertEquals(4, reports.tests.size());

        CompareRequest compare = new CompareRequest();
        reports.tests.forEach(t -> compare.expected.add(new CompareRequest.TestOutcome(t.test, t.outcome)));
        compare.actual.add(new CompareRequest.TestOutcome("p.A#a", "pass"));
        compare.actual.add(new CompareRequest.TestOutcome("p.A#b", "pass"));
        compare.actual.add(new CompareRequest.TestOutcome("p.A#c", "error"));
        compare.actual.add(new CompareRequest.TestOutcome("p.A#e", "pass"));
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

        ReportRequest.Build build = new ReportRequest.Build();
        build.summary = d.summary;
        build.module = "g:a";
        build.odrustVersion = "0.1.0";
        build.complete = true;
        build.reproduceGoal = "odrust:reproduce";
        build.orders.put(0, "target/odrust/orders");
        build.shards = new JsonArray();
        ReportTexts texts = roundTrip(engine.call("report", ReportRequest.build(build)), ReportTexts.class);
        assertTrue(texts.html.contains("p.V#victim") && texts.xml.contains("victim"));
        // What odrust:diagnose adds to report.json is read back when it is written again.
        JsonObject report = JsonParser.parseString(texts.json).getAsJsonObject();
        report.getAsJsonArray("flaky").get(0).getAsJsonObject().add("polluted_state", null);
        ReportTexts again = roundTrip(engine.call("report", ReportRequest.rewrite(report)), ReportTexts.class);
        assertEquals(texts.json, again.json);
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
        config.recordBaseline = Strategy.TARGETED.is(strategy) || Strategy.DEPENDENCE_AWARE.is(strategy);
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
        JsonArray history;
        PlanInfo plan;
        TargetedInfo targeted;
        List<String> phases = new ArrayList<>();
    }

    /** Runs detection to the end over the simulated suite, checking every detect_next answer. */
    private static Detection detect(DetectConfig config, boolean record) {
        Detection d = new Detection();
        JsonArray history = new JsonArray();
        for (int step = 0; step < 2000; step++) {
            DetectRequest request = new DetectRequest();
            request.config = config.toRequest();
            request.suite = Suite.of(suite());
            history.forEach(r -> request.history.add(ExperimentRecord.of(r)));
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
                d.history = history;
                return d;
            }
            JsonObject result = raw.getAsJsonObject("experiment").deepCopy();
            boolean baseline = next.experiment.kind == ExperimentKind.BASELINE;
            result.add("results", run(next.experiment.order, record && baseline));
            if (record && baseline) {
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
        RepairRequest request = new RepairRequest();
        RepairRequest.Target target = new RepairRequest.Target();
        target.test = "p.V#v";
        target.kind = "victim";
        target.polluters = List.of(List.of("p.P#p"));
        target.cleaners = java.util.Map.of("p.P#p", List.of("p.C#c"));
        target.stateSetters = List.of();
        target.explanationComplete = true;
        target.failingOrder = List.of("p.P#p", "p.V#v");
        target.originalOrder = List.of("p.V#v", "p.P#p");
        target.baseline = List.of(result("p.V#v", "pass"), result("p.P#p", "pass"));
        RepairRequest.FixSource source = new RepairRequest.FixSource();
        source.test = "p.C#c";
        source.statements = 1;
        source.placements = List.of("setup", "test");
        source.unusable = null;
        source.origin = "test";
        target.sources = List.of(source);
        target.fingerprint = "f";
        RepairRequest.CauseMember member = new RepairRequest.CauseMember();
        member.test = "p.V#w";
        member.failingOrder = List.of("p.P#p", "p.V#w");
        target.also = List.of(member);
        request.target = target;
        request.nextId = 1;
        request.budget = 50;
        RepairStep first = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertEquals("run", first.step);
        // The cause's tests all run after the polluter, unpatched first.
        assertEquals(List.of("p.P#p", "p.V#v", "p.V#w"), first.experiment.order);
        // The rest: the first test alone.
        target.also = List.of();
        first = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertEquals("unpatched", first.experiment.check);
        assertEquals(List.of("p.P#p", "p.V#v"), first.experiment.order);
        List<JsonObject> history = request.history;
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
        request.nextId = history.size() + 1;
        RepairStep done = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertTrue(done.isDone());
        assertEquals("patched", done.outcome.status);
        assertEquals("cleaner", done.outcome.source.kind);
        assertEquals(List.of(0), done.outcome.statements);
        assertEquals(
                List.of("failing-order", "alone", "original-order"),
                done.outcome.verification.stream().map(c -> c.check).collect(java.util.stream.Collectors.toList()));
        assertEquals(4, done.outcome.experiments);

        // A part of a split cause: what the cause before it ran whole is not run again.
        RepairRequest.RuledOut ruled = new RepairRequest.RuledOut();
        ruled.source = "p.C#c";
        ruled.placement = "setup";
        ruled.polluter = "p.P#p";
        ruled.experiment = 9;
        ruled.order = List.of("p.P#p", "p.V#v", "p.V#w");
        target.ruledOut = List.of(ruled);
        target.fingerprint = "g"; // none of the records above
        request.history = new java.util.ArrayList<>();
        request.nextId = 1;
        first = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertEquals("unpatched", first.experiment.check);
        JsonObject unpatched = Json.WIRE.toJsonTree(first.experiment).getAsJsonObject();
        unpatched.addProperty("fingerprint", "g");
        unpatched.add(
                "results",
                json("{'a':[{'test':'p.P#p','outcome':'pass'},{'test':'p.V#v','outcome':'fail'}]}")
                        .get("a"));
        request.history.add(unpatched);
        request.nextId = 2;
        RepairStep next = roundTrip(engine.call("repair_next", request), RepairStep.class);
        assertEquals("test", next.experiment.placement);
        assertEquals("p.C#c", next.experiment.source);
    }

    @Test
    void diagnoseNextAsksForTheFailingCaptureFirstAndAnUnexplainedVictimIsAVerdict() {
        DiagnoseRequest request = new DiagnoseRequest();
        request.target = new DiagnoseRequest.Target();
        request.target.test = "p.V#v";
        request.target.kind = "victim";
        request.target.polluters = List.of(List.of("p.P#p"));
        request.target.stateSetters = List.of();
        request.target.fingerprint = "f";
        request.target.unreachable = List.of("p.Far");
        request.nextId = 3;
        request.budget = 20;
        DiagnoseStep first = roundTrip(engine.call("diagnose_next", request), DiagnoseStep.class);
        assertEquals("run", first.step);
        assertEquals(3, first.experiment.id);
        assertEquals("capture-failing", first.experiment.kind);
        assertEquals(List.of("p.P#p", "p.V#v"), first.experiment.order);
        assertEquals(1, first.experiment.occurrence);
        // A confirmed diagnosis of another test of its cause is restored first.
        JsonObject verdict = json("{'test':'p.V#first','kind':'victim','status':'confirmed','reason':'r',"
                + "'failing_order':[],'passing_order':[],'fields':[],'polluted_state':['p.S.x'],"
                + "'experiments':4,'failing_capture':'/c/f.xml','passing_capture':'/c/p.xml','point':'instance'}");
        request.target.shared = DiagnoseRequest.Shared.of(verdict);
        assertEquals("instance", request.target.shared.point);
        assertEquals("class", first.experiment.point);
        DiagnoseStep restore = roundTrip(engine.call("diagnose_next", request), DiagnoseStep.class);
        assertEquals("instance", restore.experiment.point);
        assertEquals("restore", restore.experiment.kind);
        assertEquals("/c/p.xml", restore.experiment.restoreFrom);
        assertEquals(List.of("p.S.x"), restore.experiment.fields);
        request.target.shared = null;
        request.target.polluters = List.of();
        DiagnoseStep done = roundTrip(engine.call("diagnose_next", request), DiagnoseStep.class);
        assertTrue(done.isDone());
        assertEquals("unexplained", done.outcome.get("status").getAsString());
    }

    @Test
    void auditNextRunsEveryClassTwiceFirstAndConfirmsACandidateInAFreshJvm() {
        AuditRequest request = new AuditRequest();
        request.original = List.of("p.A#a", "p.A#b", "p.B#c");
        request.nextId = 1;
        request.fingerprint = "f";
        request.classDirs = List.of("/nowhere/classes");
        request.testClasses = List.of("p.A", "p.B", "p.C");
        request.maxConfirm = 5;
        AuditStep first = roundTrip(engine.call("audit_next", request), AuditStep.class);
        assertEquals("run", first.step);
        assertEquals("twice", first.experiment.kind);
        assertFalse(first.experiment.usesAgent());
        assertEquals(List.of("p.A#a", "p.A#b", "p.A#a", "p.A#b", "p.B#c", "p.B#c"), first.experiment.order);
        assertTrue(first.what.contains("twice"), first.what);
        assertTrue(first.left.contains("fresh JVM"), first.left);
        JsonObject record = json(
                "{'id':1,'kind':'twice','order':[],'fingerprint':'f','honoured':true,'jvms':1,'time_ms':4000,'results':["
                        + "{'test':'p.A#a','outcome':'pass'},{'test':'p.A#b','outcome':'pass'},"
                        + "{'test':'p.A#a','outcome':'fail','message':'count is 2'},{'test':'p.A#b','outcome':'pass'},"
                        + "{'test':'p.B#c','outcome':'pass'},{'test':'p.B#c','outcome':'pass'}]}");
        request.history.add(record);
        request.nextId = 2;
        AuditStep confirm = roundTrip(engine.call("audit_next", request), AuditStep.class);
        assertEquals("confirm", confirm.experiment.kind);
        assertEquals("p.A#a", confirm.experiment.test);
        assertFalse(confirm.experiment.classLevel);
        assertEquals(List.of("p.A#a", "p.A#a"), confirm.experiment.order);
        assertEquals(List.of("p.A"), confirm.experiment.captureTests);
        assertEquals("p.A", confirm.experiment.initializeAt.get(0).className);
        assertEquals(0, confirm.experiment.initializeAt.get(0).segment);
        assertEquals("up to 3 more runs of the order with captures (the suite took about 2.0 s here)", confirm.left);
    }

    @Test
    void reachableClassesSplitsTheGraphByWhatATestClassReaches() {
        // the plugin's own classes: this request class reaches its response, not the mojos
        ReachRequest request = new ReachRequest();
        request.classDirs = List.of(
                java.nio.file.Paths.get("target", "classes").toAbsolutePath().toString(), "/no/such/dir");
        request.from = List.of(ReachRequest.class.getName());
        ReachRequest.Response r = roundTrip(engine.call("reachable_classes", request), ReachRequest.Response.class);
        assertTrue(r.reachable.contains(ReachRequest.class.getName()), "reachable: " + r.reachable);
        assertTrue(r.reachable.contains(ReachRequest.Response.class.getName()), "reachable: " + r.reachable);
        assertTrue(r.unreachable.contains("io.github.odrust.maven.DiagnoseMojo"), "unreachable: " + r.unreachable);
    }

    @Test
    void idNextPlansTheCleanRunFirstAndIdReportRendersAnOutcome() {
        IdRequest request = new IdRequest();
        request.tests = List.of("p.A#a", "p.B#b");
        request.seeds = List.of(5L, 6L);
        request.cleanRuns = 1;
        request.budget = 100;
        request.fingerprint = "f";
        request.nextId = 1;
        IdStep first = roundTrip(engine.call("id_next", request), IdStep.class);
        assertEquals("run", first.step);
        assertEquals(1, first.experiment.id);
        assertEquals("clean", first.experiment.kind);
        assertEquals(List.of("p.A#a", "p.B#b"), first.experiment.order);
        assertEquals(null, first.experiment.seed);
        assertEquals(0, first.experiment.only.size());
        List<JsonObject> history = request.history;
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
        request.nextId = 4;
        IdStep done = roundTrip(engine.call("id_next", request), IdStep.class);
        assertTrue(done.isDone());
        assertEquals(0, done.outcome.getAsJsonArray("tests").size(), "nothing failed under a seed: no ID test");
        IdReportRequest report = new IdReportRequest(
                "g:a", done.outcome, "mvn odrust:run-order -Dodrust.order={test} -Dodrust.id.seed={seed}");
        JsonObject rendered = engine.call("id_report", report);
        assertTrue(rendered.get("html").getAsString().contains("g:a"), rendered.toString());
        assertTrue(rendered.get("xml").getAsString().contains("<testsuite"), rendered.toString());
    }

    private static ExperimentRecord.TestResult result(String test, String outcome) {
        ExperimentRecord.TestResult r = new ExperimentRecord.TestResult();
        r.test = test;
        r.outcome = outcome;
        return r;
    }

    /** Every setting the plugin can send, each set (dependence_include too: it must not cross). */
    private static DetectConfig everySetting() {
        DetectConfig config = config("targeted", 3);
        config.stopRounds = true;
        config.k = 2;
        config.minimize = true;
        config.minimizeBudget = 10;
        config.costAware = false; // a shard's plan must not depend on its own baseline
        config.shard = "1/2";
        config.dependenceFree = List.of("p.Log#*");
        config.dependenceInclude = List.of("p.*");
        config.minimizeOnly = List.of("p.V#victim");
        return config;
    }

    /** A record with every field the plugin writes. */
    private static ExperimentRecord everyField() {
        ExperimentRecord r = new ExperimentRecord();
        r.id = 1;
        r.kind = ExperimentKind.BASELINE;
        r.round = null;
        r.strategy = Strategy.ORIGINAL;
        // the baseline: the original order
        r.order = new ArrayList<>();
        Suite.of(suite()).classes.forEach(c -> r.order.addAll(c.tests));
        r.targets = List.of();
        for (String test : r.order) {
            boolean fails = test.equals("p.X#x2");
            ExperimentRecord.TestResult t = result(test, fails ? "fail" : "pass");
            t.message = fails ? "expected:<true> but was:<false>" : null;
            t.timeMs = 12L;
            t.reads = List.of("p.G#FLAG");
            t.writes = List.of();
            r.results.add(t);
        }
        r.honoured = true;
        r.millis = 900L;
        ExperimentRecord.ClassState state = new ExperimentRecord.ClassState();
        state.className = "p.S";
        state.writes = List.of("p.G#FLAG");
        r.classState = List.of(state);
        r.time = new ExperimentRecord.ExperimentTime();
        r.time.jvmMs = 800;
        r.time.bootMs = 100L;
        r.time.setupMs = 500L;
        r.time.testsMs = 150L;
        r.time.exitMs = 50L;
        r.time.odrustMs = 100L;
        r.isolation = "classloader";
        r.shareable = false;
        return r;
    }

    @Test
    void aDetectRequestWithEverySettingInASessionIsAccepted() {
        DetectConfig config = everySetting();
        DetectRequest request = new DetectRequest();
        request.config = config.toRequest();
        assertFalse(Json.WIRE.toJsonTree(request.config).getAsJsonObject().has("dependence_include"));
        request.suite = Suite.of(suite());
        request.history.add(everyField());
        request.session = "protocol-test-" + System.nanoTime();
        request.historyFrom = 0;
        roundTrip(engine.call("detect_next", request), NextStep.class);
        // The session continued: no suite, the records after those it holds.
        request.suite = null;
        request.history = List.of();
        request.historyFrom = 1;
        roundTrip(engine.call("detect_summary", request), Summary.class);
        engine.call("detect_end", new DetectEndRequest(request.session));
    }

    @Test
    void aKeyTheEngineDoesNotKnowIsABadRequest() {
        DetectRequest request = new DetectRequest();
        request.config = config("random-class", 2).toRequest();
        request.suite = Suite.of(suite());
        JsonObject json = Json.WIRE.toJsonTree(request).getAsJsonObject();
        json.getAsJsonObject("config").add("dependence_include", new JsonArray());
        EngineException e = assertThrows(EngineException.class, () -> engine.call("detect_next", json));
        assertEquals("bad-request", e.getCode());
        assertTrue(e.getMessage().contains("dependence_include"), e.getMessage());
        // and the suite as discovered, with the agent's note, is not what the engine reads
        JsonObject discovered = suite();
        discovered.getAsJsonArray("classes").get(0).getAsJsonObject().add("note", null);
        JsonObject raw = Json.WIRE
                .toJsonTree(new PlanOrderRequest(null, "p.S#setter", "x"))
                .getAsJsonObject();
        raw.add("suite", discovered);
        assertEquals(
                "bad-request",
                assertThrows(EngineException.class, () -> engine.call("plan_order", raw))
                        .getCode());
        assertEquals(
                1,
                engine.call("plan_order", new PlanOrderRequest(Suite.of(discovered), "p.S#setter", "x"))
                        .getAsJsonArray("order")
                        .size());
    }

    @Test
    void aMergeOfShardsWithEverySettingIsAccepted() {
        MergeRequest request = new MergeRequest();
        for (int k = 1; k <= 2; k++) {
            DetectConfig shard = config("random-class", 2);
            shard.minimize = false;
            shard.shard = k + "/2";
            Detection d = detect(shard, false);
            // run.json's config as the plugin saves it, read back as a shard's
            JsonObject saved = shard.toJson();
            saved.add("dependence_include", new JsonArray());
            MergeRequest.ShardRun run = new MergeRequest.ShardRun();
            run.source = "shard-" + k;
            run.odrustVersion = "0.1.0";
            run.config = Json.WIRE.fromJson(saved, DetectRequest.Config.class);
            run.suite = Suite.of(suite());
            d.history.forEach(r -> run.history.add(ExperimentRecord.of(r)));
            request.shards.add(run);
        }
        JsonObject merged = engine.call("detect_merge", request);
        assertEquals(2, merged.getAsJsonArray("shards").size(), merged.toString());
    }

    @Test
    void resetMethodsAndIncrementalSelectAreAccepted(@TempDir Path dir) throws Exception {
        Path main = Files.createDirectories(dir.resolve("classes"));
        Path test = Files.createDirectories(dir.resolve("test-classes"));
        ResetRequest reset = new ResetRequest();
        reset.classDirs = List.of(main.toString(), test.toString());
        reset.field = new ResetRequest.FieldId("p.G", "STATE");
        reset.innerFields = List.of("count");
        reset.testClass = "p.V";
        assertNotNull(engine.call("reset_methods", reset).getAsJsonArray("candidates"));

        SelectRequest select = new SelectRequest();
        select.mainDirs = List.of(main.toString());
        select.testDirs = List.of(test.toString());
        select.jars = List.of();
        select.ownJars = List.of();
        select.testClasses = List.of("p.V");
        select.state = null;
        select.buildFingerprint = "b";
        select.selectAll = true;
        JsonObject first = engine.call("incremental_select", select);
        select.state = first.get("state");
        select.selectAll = false;
        assertNotNull(engine.call("incremental_select", select));
    }

    /**
     * A field with no reset method: the engine offers its passing value, read from the capture,
     * with the polluter's teardown first; the response round-trips through {@link ResetResponse}.
     */
    @Test
    void resetMethodsOfferThePassingValueAndRoundTrip(@TempDir Path dir) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/p"));
        Files.writeString(
                src.resolve("G.java"),
                "package p; public class G { public static String mode = init();"
                        + " static String init() { return \"default\"; } }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        assertEquals(
                0,
                javac.run(
                        null,
                        null,
                        null,
                        "-d",
                        classes.toString(),
                        src.resolve("G.java").toString()));
        Path passing = dir.resolve("passing.xml");
        Files.writeString(
                passing,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<capture version=\"1\" test=\"p.V#v\""
                        + " occurrence=\"1\" java=\"17\" nodes=\"1\" limit=\"200000\" truncated=\"false\">\n"
                        + "<class name=\"p.G\" initialized=\"true\"><static field=\"mode\""
                        + " type=\"java.lang.String\" final=\"false\"><string>default</string></static></class>\n"
                        + "</capture>\n");
        ResetRequest reset = new ResetRequest();
        reset.classDirs = List.of(classes.toString());
        reset.field = new ResetRequest.FieldId("p.G", "mode");
        reset.innerFields = List.of();
        reset.testClass = "q.V";
        reset.polluterClass = "q.P";
        reset.passingCapture = passing.toString();
        reset.failingCapture = passing.toString();
        reset.limit = 5;
        ResetResponse r = roundTrip(engine.call("reset_methods", reset), ResetResponse.class);
        assertTrue(r.fieldFound);
        assertEquals(1, r.classesRead);
        assertEquals(1, r.candidates.size(), r.candidates.toString());
        ResetResponse.Candidate c = r.candidates.get(0);
        assertEquals("p.G.mode = \"default\";", c.statement);
        assertEquals(List.of(c.statement), c.statements);
        assertEquals("passing-value", c.kind);
        assertEquals(List.of("polluter-teardown", "setup", "test"), c.placements);
        assertEquals(null, r.directRestoreRefused);
    }

    @Test
    void theJavaEnumsAreTheEnginesVocabulary() {
        Vocabulary v = engine.call("vocabulary", new JsonObject(), Vocabulary.class);
        assertEquals(
                v.experimentKinds,
                java.util.Arrays.stream(ExperimentKind.values())
                        .map(String::valueOf)
                        .collect(Collectors.toList()));
        assertEquals(
                v.strategies,
                java.util.Arrays.stream(Strategy.values()).map(String::valueOf).collect(Collectors.toList()));
        assertEquals(
                new java.util.HashSet<>(v.runOutcomes),
                new java.util.HashSet<>(io.github.odrust.maven.run.RunResult.OUTCOMES),
                "the outcomes result.json and the records name");
        assertEquals(v.runOutcomes.size(), io.github.odrust.maven.run.RunResult.OUTCOMES.size());
        assertEquals(
                new java.util.HashSet<>(v.failedOutcomes),
                io.github.odrust.maven.run.RunResult.FAILED_OUTCOMES,
                "the outcomes a repair's rule-out counts as failing");
        for (ExperimentKind k : ExperimentKind.values()) {
            assertEquals(Json.WIRE.toJsonTree(k).getAsString(), k.toString());
        }
        for (Strategy st : Strategy.values()) {
            assertEquals(Json.WIRE.toJsonTree(st).getAsString(), st.toString());
        }
    }
}
