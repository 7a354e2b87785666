package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.odrust.engine.Json;
import io.github.odrust.engine.protocol.Estimate;
import io.github.odrust.engine.protocol.Experiment;
import io.github.odrust.engine.protocol.ExperimentKind;
import io.github.odrust.engine.protocol.NextStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's estimate in words: what each OD test adds, the phase and the time left, predicted against actual. */
class EstimateTextTest {
    /** As the engine sends it (detect_next's "estimate"). */
    private static final String ESTIMATE = "{\"phases\":["
            + "{\"phase\":\"rounds\",\"done\":20,\"left\":0,\"counted\":true,\"spent_ms\":51000,\"left_ms\":0,\"basis\":\"measured\"},"
            + "{\"phase\":\"confirm\",\"done\":4,\"left\":0,\"counted\":true,\"spent_ms\":10000,\"left_ms\":0,\"basis\":\"measured\"},"
            + "{\"phase\":\"alone\",\"done\":12,\"left\":63,\"counted\":true,\"spent_ms\":22000,\"left_ms\":120000,\"basis\":\"measured\"},"
            + "{\"phase\":\"minimize\",\"done\":0,\"left\":100,\"counted\":false,\"spent_ms\":0,\"left_ms\":300000,\"basis\":\"model\"}],"
            + "\"left_ms\":420000}";

    private static Estimate estimate() {
        return Json.WIRE.fromJson(ESTIMATE, Estimate.class);
    }

    private static Experiment of(ExperimentKind kind) {
        Experiment e = new Experiment();
        e.kind = kind;
        return e;
    }

    @Test
    void batchesRunForksAtATimeAndExplanationsOneAfterTheOther() {
        assertEquals(420_000, EstimateText.wallLeft(estimate(), 1, 1));
        assertEquals(60_000 + 300_000, EstimateText.wallLeft(estimate(), 2, 1));
        assertEquals(60_000 + 150_000, EstimateText.wallLeft(estimate(), 2, 3), "two of a batch of three side by side");
        assertEquals(420_000, EstimateText.wallLeft(estimate(), 1, 3), "one fork: one at a time");
    }

    @Test
    void progressSaysThePhaseAndTheTimeLeftForTheWholeRun() {
        NextStep.Progress p = new NextStep.Progress();
        p.phase = "alone";
        p.explainBudget = 1500;
        p.explainSpent = 0;
        assertEquals("  alone 12/75  ~7.0 min left", EstimateText.left(of(ExperimentKind.ALONE), p, estimate(), 1, 0));
        p.phase = "minimize";
        p.explainSpent = 12;
        assertEquals(
                "  explanation 12 of the budget's 1500  ~6.0 min left",
                EstimateText.left(of(ExperimentKind.POLLUTER_PAIR), p, estimate(), 2, 1));
        assertEquals("  ~7.0 min left", EstimateText.left(of(ExperimentKind.ROUND), p, estimate(), 1, 0));
        p.phase = "done";
        assertEquals("", EstimateText.left(of(ExperimentKind.ROUND), p, estimate(), 1, 0));
        assertEquals("", EstimateText.left(of(ExperimentKind.ROUND), p, null, 1, 0), "before the baseline: nothing");
    }

    @Test
    void perOdTestOnlyWhileRoundsCanFindMore() {
        assertEquals("", EstimateText.perOdTest(estimate(), 1));
        Estimate e = estimate();
        e.perOdTest = Json.WIRE.fromJson(
                "{\"alone\":3,\"alone_ms\":5600,\"explain\":12,\"explain_ms\":40000}", Estimate.PerOdTest.class);
        assertEquals(
                "; each OD test found adds 3 alone runs (~5.6 s) and about 12 explanation experiments (~40.0 s)",
                EstimateText.perOdTest(e, 1));
        e.perOdTest.explain = 0;
        assertEquals("; each OD test found adds 3 alone runs (~2.8 s)", EstimateText.perOdTest(e, 2));
    }

    @Test
    void roundsAfterTheIsolationCheckAreSaidToBePredictedInSharedJvms() {
        Estimate.Phase rounds = Json.WIRE.fromJson(
                "{\"phase\":\"rounds\",\"done\":0,\"left\":20,\"counted\":true,\"spent_ms\":0,"
                        + "\"left_ms\":1100,\"basis\":\"model\",\"shared\":18,\"shared_ms\":500}",
                Estimate.Phase.class);
        assertEquals(
                "2 in fresh JVMs at ~0.3 s each, then 18 in shared JVMs at ~27 ms each once the isolation check"
                        + " passes (6.0 s if it refuses them)",
                EstimateText.sharedRounds(rounds, 1));
        assertEquals(
                "2 in fresh JVMs at ~0.3 s each, then 18 in shared JVMs at ~27 ms each once the isolation check"
                        + " passes (3.0 s if it refuses them)",
                EstimateText.sharedRounds(rounds, 2),
                "two forks: the fresh alternative halves");
        rounds.shared = null;
        assertEquals(null, EstimateText.sharedRounds(rounds, 1), "nothing shared: the usual plan line");
        assertEquals(null, EstimateText.sharedRounds(estimate().phases.get(0), 1));
    }

    @Test
    void phasesJoinTheEnginesSentences() {
        Estimate.PhaseTime a = new Estimate.PhaseTime();
        a.text = "rounds: 20 experiments in 51.0 s (predicted at its start: 20 in 48.0 s)";
        Estimate.PhaseTime b = new Estimate.PhaseTime();
        b.text = "alone runs: 75 experiments in 2 min (predicted at its start: 75 in 2 min)";
        assertEquals(a.text + "; " + b.text, EstimateText.phases(List.of(a, b)));
        assertEquals("", EstimateText.phases(null));
    }
}
