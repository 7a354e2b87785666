package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.RepairRequest;
import io.github.odrust.engine.protocol.RepairStep;
import io.github.odrust.maven.core.Eta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RepairerTest {

    /**
     * The repair's time left counts the records {@link Repairer#ranJvm} accepts, and the engine's
     * budget and the entry's {@code experiments} count its own way: both must count the same
     * records, or the progress line and repair.json disagree on how many test JVMs ran.
     */
    @Test
    void theTestJvmsTheEstimateCountsAreTheOnesTheEngineCounts() {
        Engine engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
        RepairRequest request = new RepairRequest();
        RepairRequest.Target target = new RepairRequest.Target();
        target.test = "p.V#v";
        target.kind = "victim";
        target.polluters = List.of(List.of("p.P#p"));
        target.cleaners = Map.of("p.P#p", List.of("p.C#c", "p.D#d"));
        target.stateSetters = List.of();
        target.explanationComplete = true;
        target.failingOrder = List.of("p.P#p", "p.V#v");
        target.originalOrder = List.of("p.V#v", "p.P#p");
        target.baseline = List.of(result("p.V#v", "pass"), result("p.P#p", "pass"));
        List<RepairRequest.FixSource> sources = new ArrayList<>();
        for (String test : List.of("p.D#d", "p.C#c")) {
            RepairRequest.FixSource source = new RepairRequest.FixSource();
            source.test = test;
            source.statements = 1;
            source.placements = List.of("setup", "test");
            source.origin = "test";
            sources.add(source);
        }
        target.sources = sources;
        target.fingerprint = "f";
        request.target = target;
        request.budget = 50;
        // The unpatched run; a candidate that does not compile at either placement; one whose results were another
        // test's (reused); and the rest of a patch's verification, run.
        List<JsonObject> history = request.history;
        history.add(record(history, "unpatched", null, "fail", "p.P#p,p.V#v"));
        for (String placement : List.of("setup", "test")) {
            JsonObject broken = record(history, "failing-order", "p.D#d", null, "p.P#p,p.V#v");
            broken.addProperty("placement", placement);
            broken.addProperty("compile_error", "cannot find symbol");
            history.add(broken);
        }
        JsonObject reused = record(history, "failing-order", "p.C#c", "pass", "p.P#p,p.V#v");
        reused.addProperty("reused_from", 99);
        history.add(reused);
        history.add(record(history, "alone", "p.C#c", "pass", "p.V#v"));
        history.add(record(history, "original-order", "p.C#c", "pass", "p.V#v,p.P#p"));
        request.nextId = history.size() + 1;
        RepairStep done = engine.call("repair_next", request, RepairStep.class);
        assertTrue(done.isDone(), Json.WIRE.toJson(done));
        assertEquals("patched", done.outcome.status, done.outcome.reason);
        long ran = history.stream().filter(Repairer::ranJvm).count();
        assertEquals(3, ran);
        assertEquals(ran, done.outcome.experiments, "the engine's count of test JVMs");
        assertEquals(2, done.outcome.compileErrors);
    }

    /**
     * An experiment's time left is said after the engine planned the next step: nothing after a
     * repair's last experiment (on light-4j a line after the last check said "~22 experiments
     * left"), the next check's {@code checks_left} while a patch's checks go on, else the model.
     */
    @Test
    void theTimeLeftAfterAnExperimentIsWhatTheEnginesNextStepLeaves() {
        List<String> said = new ArrayList<>();
        Eta eta = new Eta("repair", 2, 20, 100, 1000);
        eta.begin();
        RepairStep done = new RepairStep();
        done.step = "done";
        Repairer.ran(eta, 1000, done, said::add);
        assertEquals(List.of(), said, "the repair is done: its end is said next");
        assertEquals(1, eta.experiments());
        eta.end();

        // The second repair: its first experiment is followed by the last of 3 checks (due: a new unit).
        eta.begin();
        RepairStep check = new RepairStep();
        check.step = "run";
        check.checksLeft = 1;
        Repairer.ran(eta, 1000, check, said::add);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).contains("~1 experiment (~1.0 s) left"), said.get(0));
        eta.end();

        // A third repair whose next step is not a check: the model (both that ended took 1; past
        // that, the prior of 20 per repair).
        eta.more(1);
        eta.begin();
        RepairStep candidate = new RepairStep();
        candidate.step = "run";
        said.clear();
        Repairer.ran(eta, 1000, candidate, said::add);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("repair 3 of 3, ~19 experiments"), said.get(0));
    }

    private static JsonObject record(
            List<JsonObject> history, String check, String source, String outcome, String order) {
        JsonObject r = new JsonObject();
        r.addProperty("id", history.size() + 1);
        r.addProperty("test", "p.V#v");
        r.addProperty("source", source);
        r.addProperty("polluter", source == null ? null : "p.P#p");
        r.addProperty("placement", source == null ? null : "setup");
        JsonArray statements = new JsonArray();
        if (source != null) {
            statements.add(0);
        }
        r.add("statements", statements);
        r.addProperty("check", check);
        r.add("order", Json.WIRE.toJsonTree(List.of(order.split(","))));
        r.addProperty("fingerprint", "f");
        JsonArray results = new JsonArray();
        if (outcome != null) {
            for (String t : order.split(",")) {
                JsonObject x = new JsonObject();
                x.addProperty("test", t);
                x.addProperty("outcome", t.equals("p.V#v") ? outcome : "pass");
                results.add(x);
            }
        }
        r.add("results", results);
        return r;
    }

    private static ExperimentRecord.TestResult result(String test, String outcome) {
        ExperimentRecord.TestResult r = new ExperimentRecord.TestResult();
        r.test = test;
        r.outcome = outcome;
        return r;
    }
}
