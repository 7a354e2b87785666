package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.engine.protocol.ResetResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResetSourcesTest {
    private static ResetResponse.Candidate candidate(String kind, List<String> placements, String... statements) {
        ResetResponse.Candidate c = new ResetResponse.Candidate();
        c.kind = kind;
        c.statements = List.of(statements);
        c.statement = String.join(" ", statements);
        c.placements = placements;
        return c;
    }

    private static List<String> texts(FixCode fix) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < fix.statements.size(); i++) {
            out.add(fix.text(i));
        }
        return out;
    }

    @Test
    void eachCandidateIsPlacedWhereTheEngineSaysAndAllTogetherOnlyWhereTheyAllCompile() {
        List<String> everywhere = List.of("setup", "polluter-teardown", "test");
        Map<String, FixCode> sources = ResetSources.sources(
                List.of(
                        candidate("static-method", everywhere, "p.G.reset();"),
                        candidate(
                                "passing-value",
                                List.of("polluter-teardown", "setup", "test"),
                                "p.G.NAMES.clear();",
                                "p.G.NAMES.add(\"a\");"),
                        candidate("passing-value", List.of("polluter-teardown"), "p.G.mode = null;"),
                        candidate("field-clear", List.of("setup", "test"), "p.G.NAMES.clear();")),
                "q.VTest");
        assertEquals(
                List.of(
                        "reset-method:1",
                        "reset-method:2:passing-value",
                        "reset-method:3:passing-value",
                        "reset-method:4",
                        "reset-method:all"),
                new ArrayList<>(sources.keySet()));
        FixCode refill = sources.get("reset-method:2:passing-value");
        assertTrue(refill.generated);
        assertEquals(List.of("p.G.NAMES.clear();", "p.G.NAMES.add(\"a\");"), texts(refill));
        assertEquals(List.of("polluter-teardown", "setup", "test"), refill.placements);
        assertEquals(List.of("polluter-teardown"), sources.get("reset-method:3:passing-value").placements);
        // The polluter-only statement is left out of "all"; the rest share setup and test only.
        FixCode all = sources.get("reset-method:all");
        assertEquals(
                List.of("p.G.reset();", "p.G.NAMES.clear();", "p.G.NAMES.add(\"a\");", "p.G.NAMES.clear();"),
                texts(all));
        assertEquals(List.of("setup", "test"), all.placements);
        assertTrue(ResetSources.isPassingValue("reset-method:2:passing-value"));
        assertFalse(ResetSources.isPassingValue("reset-method:1"));
        assertFalse(ResetSources.isPassingValue("com.acme.CleanerTest#passing-value"));
    }

    @Test
    void oneCandidateTheTestsClassCanCompileMakesNoAllSource() {
        Map<String, FixCode> sources = ResetSources.sources(
                List.of(
                        candidate("passing-value", List.of("polluter-teardown"), "p.G.mode = null;"),
                        candidate("static-method", List.of("setup", "test"), "p.G.reset();")),
                "q.VTest");
        assertEquals(List.of("reset-method:1:passing-value", "reset-method:2"), new ArrayList<>(sources.keySet()));
        assertNull(sources.get("reset-method:all"));
    }
}
