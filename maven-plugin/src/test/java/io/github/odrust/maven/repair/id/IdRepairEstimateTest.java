package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
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
    void eachRepairIsPricedAsItsRunsAloneAndOneRunOfTheOriginalOrder() {
        IdRepairEstimate e = fromReport();
        assertEquals(12 * 2000 + 32000, e.add(12));
        assertEquals(5 * 2000 + 32000, e.add(5));
        assertEquals(0, e.add(0), "a test no rewrite applies to runs nothing, and is not counted");
        String start = e.start();
        assertTrue(start.startsWith("2 repairs to verify, predicted ~1.6 min"), start);
        assertTrue(start.contains("2.0 s and one run of the original order at 32.0 s"), start);
        assertEquals("repair 1 of 2, ~1.6 min left", e.at(1));
    }

    @Test
    void theRestIsScaledByWhatTheEndedRepairsTook() {
        IdRepairEstimate e = fromReport();
        long first = e.add(12); // 56 s
        e.add(12);
        e.add(12);
        e.start();
        // the first took twice its prediction: the two left, 112 s, scaled by (112 + 56) / (56 + 56)
        e.ended(first, 2 * first);
        assertEquals(168_000, e.left());
        assertTrue(e.outcome().startsWith("took 1.9 min (predicted at the start: ~2.8 min)"), e.outcome());
        assertEquals(112000, e.json().get("actual_ms").getAsLong());
        assertEquals(168000, e.json().get("predicted_ms").getAsLong());
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
