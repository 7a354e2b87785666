package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import io.github.odrust.maven.core.Eta;
import org.junit.jupiter.api.Test;

class IdRepairEstimateTest {
    private static IdRepairEstimate fromReport() {
        // detect-id's phases: 5 runs of the whole suite in 160 s, 64 runs alone in 128 s
        return IdRepairEstimate.of(JsonParser.parseString("{\"phases\": ["
                        + "{\"phase\": \"phase 1\", \"experiments\": 5, \"actual_ms\": 160000},"
                        + "{\"phase\": \"searches\", \"experiments\": 64, \"actual_ms\": 128000}]}")
                .getAsJsonObject());
    }

    @Test
    void eachRepairIsPricedAsItsRunsAloneAndAllOfThemAsOneRunOfTheOriginalOrder() {
        IdRepairEstimate e = fromReport();
        assertEquals(12 * 2000, e.add(12));
        assertEquals(5 * 2000, e.add(5));
        assertEquals(0, e.add(0), "a test no rewrite applies to runs nothing, and is not counted");
        e.addOriginalOrder();
        e.addOriginalOrder();
        String start = e.start();
        // 24 s + 10 s alone, two runs of the original order (without the patches, with both) at 32 s
        assertTrue(start.startsWith("2 repairs to verify, predicted ~1.6 min"), start);
        assertTrue(
                start.contains(
                        "2.0 s; then the original order without the patches and with every one, at 32.0 s a run"),
                start);
        assertEquals("repair 1 of 2, ~1.6 min left", e.at(1));
    }

    @Test
    void withNothingToVerifyTheOriginalOrderIsNotRun() {
        IdRepairEstimate e = fromReport();
        e.add(0);
        e.addOriginalOrder();
        assertTrue(e.start().startsWith("0 repairs to verify, predicted ~0.0 s"), e.start());
    }

    @Test
    void theRestIsScaledByWhatTheEndedRepairsTook() {
        IdRepairEstimate e = fromReport();
        long first = e.add(12); // 24 s
        e.add(12);
        e.add(12);
        e.addOriginalOrder(); // 32 s
        e.start();
        // the first took twice its prediction: the two left and the original order, 80 s, scaled
        // by (48 + 24) / (24 + 24)
        e.ended(first, 2 * first);
        assertEquals(120_000, e.left());
        e.ended(first, first);
        e.ended(first, first);
        assertEquals("~" + Eta.duration(Math.round(32_000 * (96 + 24) / 96.0)) + " left", e.originalOrderAt());
        e.endedOriginalOrder(40_000);
        assertEquals(0, e.left());
        assertTrue(e.outcome().startsWith("took 2.3 min (predicted at the start: ~1.7 min)"), e.outcome());
        assertEquals(136000, e.json().get("actual_ms").getAsLong());
        assertEquals(104000, e.json().get("predicted_ms").getAsLong());
    }

    @Test
    void withoutDetectIdsPhasesNoTimeIsPredicted() {
        IdRepairEstimate e = IdRepairEstimate.of(JsonParser.parseString("{}").getAsJsonObject());
        e.add(12);
        assertTrue(e.start().contains("no time predicted"), e.start());
        assertEquals("repair 1 of 1", e.at(1));
        assertTrue(!e.json().has("predicted_ms"));
    }
}
