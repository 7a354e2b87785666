package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.engine.protocol.NextStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Experiment lines keep their columns past round 9 and experiment 999, and do not repeat the seed. */
class ProgressLineTest {
    private static String line(int id, String kind, Integer round, String target) {
        Experiment e = new Experiment();
        e.id = id;
        e.kind = java.util.Arrays.stream(ExperimentKind.values())
                .filter(k -> k.toString().equals(kind))
                .findFirst()
                .orElseThrow();
        e.round = round;
        e.strategy = round == null ? null : "reverse-passing";
        e.targets = target == null ? List.of() : List.of(target);
        NextStep.Progress p = new NextStep.Progress();
        p.roundsDone = round == null ? 20 : round;
        p.roundsTotal = 20;
        p.odFound = 3;
        return Detector.progressLine(e, p, 1234, false);
    }

    @Test
    void columnsStayAligned() {
        List<String> lines = List.of(
                line(2, "round", 9, null),
                line(13, "round", 10, null),
                line(999, "cleaner", null, "p.VictimTest#v"),
                line(12345, "alone", null, "p.VictimTest#v"));
        int found = lines.get(0).indexOf("found");
        int seconds = lines.get(0).indexOf("1.2s");
        for (String l : lines) {
            assertEquals(found, l.indexOf("found"), String.join("\n", lines));
            assertEquals(seconds, l.indexOf("1.2s"), String.join("\n", lines));
            assertFalse(l.contains("seed="), l);
        }
        assertEquals(lines.get(0).indexOf("reverse-passing"), lines.get(1).indexOf("reverse-passing"));
    }

    @Test
    void aShardCountsItsOwnRoundsAndNamesThePlansNumber() {
        Experiment e = new Experiment();
        e.id = 5;
        e.kind = ExperimentKind.ROUND;
        e.round = 13;
        e.strategy = "tuscan";
        NextStep.Progress p = new NextStep.Progress();
        p.roundsDone = 5;
        p.roundsTotal = 11;
        String l = Detector.progressLine(e, p, 1234, true);
        assertTrue(l.contains("round  5/11") && l.contains("tuscan, plan round 13"), l);
    }
}
