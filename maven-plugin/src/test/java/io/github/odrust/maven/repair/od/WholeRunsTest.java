package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.protocol.RepairRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WholeRunsTest {
    private static final String P = "p.PolluterTest#p";
    private static final String V1 = "p.ATest#v1";
    private static final String V2 = "p.ATest#v2";
    private static final String V3 = "p.BTest#v3";

    private static final Map<String, FixCode> FIXES = Map.of(
            "reset-method:1",
            FixCode.generated("reset-method:1", "p.ATest", List.of("p.Config.reload();", "p.Cache.clear();")));

    /** A repair record as experiments.jsonl has it; {@code v2} and {@code v3} fail when asked. */
    private static JsonObject record(
            int id, String fingerprint, String check, String statements, String extra, boolean v2Fails) {
        return record(id, fingerprint, check, statements, extra, v2Fails ? "error" : "pass");
    }

    private static JsonObject record(
            int id, String fingerprint, String check, String statements, String extra, String v2) {
        String results = "{\"test\":\"" + P + "\",\"outcome\":\"pass\"},"
                + "{\"test\":\"" + V1 + "\",\"outcome\":\"fail\"},"
                + "{\"test\":\"" + V2 + "\",\"outcome\":\"" + v2 + "\"},"
                + "{\"test\":\"" + V3 + "\",\"outcome\":\"fail\"}";
        return JsonParser.parseString("{\"id\":" + id + ",\"test\":\"" + V1 + "\",\"source\":\"reset-method:1\","
                        + "\"polluter\":\"" + P + "\",\"placement\":\"polluter-teardown\",\"statements\":" + statements
                        + ",\"check\":\"" + check + "\",\"order\":[\"" + P + "\",\"" + V1 + "\",\"" + V2 + "\",\"" + V3
                        + "\"],\"fingerprint\":\"" + fingerprint + "\",\"results\":[" + results + "],\"honoured\":true"
                        + extra + "}")
                .getAsJsonObject();
    }

    @Test
    void aWholeBodyRunRulesOutItsCandidateForAPartWhoseTestsAllFailedThere() {
        JsonArray history = new JsonArray();
        history.add(record(4, "f1", "failing-order", "[0,1]", "", false));
        List<WholeRuns.Run> runs = WholeRuns.of(history, V1, "f1", FIXES);
        assertEquals(1, runs.size());

        List<RepairRequest.RuledOut> out = WholeRuns.ruledOut(runs, List.of(V1, V3), FIXES);
        assertEquals(1, out.size());
        RepairRequest.RuledOut r = out.get(0);
        assertEquals("reset-method:1", r.source);
        assertEquals("polluter-teardown", r.placement);
        assertEquals(P, r.polluter);
        assertEquals(4, r.experiment);
        assertEquals(List.of(P, V1, V2, V3), r.order);

        // v2 passed there: the candidate may fix it, so a part with v2 runs it again
        assertNull(WholeRuns.ruledOut(runs, List.of(V1, V2), FIXES));
        // the part's source of that name has other code: its own diagnosis, run it
        Map<String, FixCode> other = Map.of(
                "reset-method:1",
                FixCode.generated("reset-method:1", "p.ATest", List.of("p.Config.reload();", "p.Other.clear();")));
        assertNull(WholeRuns.ruledOut(runs, List.of(V3), other));
    }

    @Test
    void onlyFreshRunsOfTheWholeBodyInTheFailingOrderOfThisRepairCount() {
        JsonArray history = new JsonArray();
        history.add(record(1, "f1", "unpatched", "[]", "", true));
        history.add(record(2, "f1", "failing-order", "[0]", "", true)); // ddmin's subset
        history.add(record(3, "f1", "failing-order", "[0,1]", ",\"isolation\":\"classloader\"", true));
        history.add(record(4, "f1", "failing-order", "[0,1]", ",\"compile_error\":\"cannot find symbol\"", true));
        history.add(record(5, "f0", "failing-order", "[0,1]", "", true)); // sources changed since
        history.add(record(6, "f1", "class", "[0,1]", "", true));
        history.add(record(7, "f1", "failing-order", "[0,1]", ",\"honoured\":false", true));
        assertEquals(List.of(), WholeRuns.of(history, V1, "f1", FIXES));
        assertEquals(List.of(), WholeRuns.of(history, V3, "f1", FIXES)); // another target's records

        history.add(record(8, "f1", "failing-order", "[0,1]", ",\"isolation\":\"jvm\",\"reused_from\":5", true));
        List<WholeRuns.Run> runs = WholeRuns.of(history, V1, "f1", FIXES);
        assertEquals(1, runs.size());
        assertEquals(8, runs.get(0).experiment());
        assertEquals(1, WholeRuns.ruledOut(runs, List.of(V2), FIXES).size());
    }

    @Test
    void aTestThatWasSkippedOrNotRunThereDoesNotCountAsFailed() {
        for (String v2 : List.of("skipped", "not-run")) {
            JsonArray history = new JsonArray();
            history.add(record(4, "f1", "failing-order", "[0,1]", "", v2));
            List<WholeRuns.Run> runs = WholeRuns.of(history, V1, "f1", FIXES);
            assertNull(WholeRuns.ruledOut(runs, List.of(V1, V2), FIXES), v2);
            assertEquals(1, WholeRuns.ruledOut(runs, List.of(V1, V3), FIXES).size(), v2);
        }
        for (String v2 : List.of("fail", "error", "crash", "timeout", "exit")) {
            JsonArray history = new JsonArray();
            history.add(record(4, "f1", "failing-order", "[0,1]", "", v2));
            List<WholeRuns.Run> runs = WholeRuns.of(history, V1, "f1", FIXES);
            assertEquals(1, WholeRuns.ruledOut(runs, List.of(V1, V2), FIXES).size(), v2);
        }
    }
}
