package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.engine.protocol.Summary;
import org.junit.jupiter.api.Test;

/** Units of experiments: the prior until one ends, then the median, within the cap; the mean cost. */
class EtaTest {
    @Test
    void thePriorPredictsTheStartAndTheMedianOfEndedUnitsTheRest() {
        Eta eta = new Eta("cause", 3, 10, 100, 2000);
        assertEquals(30, eta.predictedExperiments());
        assertEquals(60_000, eta.predictedMillis());
        assertTrue(
                eta.prediction().startsWith("predicted ~30 experiments (~1.0 min: 10 per cause, 2.0 s each)"),
                eta.prediction());
        eta.begin();
        for (int i = 0; i < 4; i++) {
            eta.ran(1000);
        }
        // under way: 6 more of the prior's 10, and 2 causes not started
        assertEquals(6 + 20, eta.experimentsLeft());
        assertEquals(26 * 1000, eta.leftMillis(), "the mean of what ran, not the prior");
        eta.end();
        assertEquals(8, eta.experimentsLeft(), "4 per cause now, for the 2 left");
        eta.begin();
        for (int i = 0; i < 6; i++) {
            eta.ran(1000);
        }
        assertEquals(4 + 4, eta.experimentsLeft(), "past the median of the one ended, the prior's 10");
        eta.about("cause 2, 3 tests");
        assertEquals("cause 2 of 3 (cause 2, 3 tests), ~8 experiments (~8.0 s) left", eta.text());
        eta.end();
        assertTrue(
                eta.outcome().startsWith("10 experiments in 10.0 s (predicted at the start: ~30 in ~1.0 min)"),
                eta.outcome());
    }

    @Test
    void thePlannersPredictionIsTakenAsItSaysIt() {
        Eta eta = Eta.planned("test", 3, 30, 300, 11, "from each test's counted calls");
        assertEquals(11, eta.predictedExperiments());
        assertEquals(3300, eta.predictedMillis());
        assertTrue(
                eta.prediction()
                        .startsWith("predicted ~11 experiments (~3.3 s: from each test's counted calls, 0.3 s each)"),
                eta.prediction());
        eta.begin();
        eta.planned(11);
        eta.ran(200);
        eta.planned(10);
        eta.ran(400);
        // the planner's count less the one that ran since it said, at the mean cost so far
        assertEquals(9, eta.experimentsLeft());
        assertEquals(9 * 300, eta.leftMillis());
        // a planner that scales its rest by what ended: its word is taken, never below the one
        // under way
        eta.planned(0);
        assertEquals(1, eta.experimentsLeft());
        eta.end();
        assertEquals(0, eta.experimentsLeft());
        // an estimate of its own ignores planned counts
        Eta own = new Eta("test", 2, 6, 30, 0);
        own.planned(50);
        assertEquals(12, own.experimentsLeft());
    }

    @Test
    void aCausesOtherTestsArePredictedApart() {
        // 2 causes of 3 and 2 tests: 2 first tests at 6, 3 others at 1
        Eta eta = new Eta("test", 2, 6, 3, 1, 40, 1000);
        assertEquals(2 * 6 + 3, eta.predictedExperiments());
        assertTrue(
                eta.prediction()
                        .startsWith("predicted ~15 experiments (~15.0 s: 6 per test, 1 per other test of a cause"),
                eta.prediction());
        eta.begin(false);
        for (int i = 0; i < 4; i++) {
            eta.ran(1000);
        }
        eta.end();
        assertEquals(4 + 3, eta.experimentsLeft(), "the other first test at the median of 4; the others at 1");
        eta.begin(true);
        eta.ran(1000);
        eta.ran(1000);
        eta.end();
        assertEquals(4 + 2 * 2, eta.experimentsLeft(), "the others now at their own median, 2");
        eta.begin(false);
        eta.ran(1000);
        assertEquals(3 + 2 * 2, eta.experimentsLeft());
        assertEquals("test 3 of 5, ~7 experiments (~7.0 s) left", eta.text());
        // a test said to follow beyond the followers counted is a first one
        eta.end();
        eta.begin(true);
        eta.end();
        eta.begin(true);
        eta.end();
        eta.begin(true);
        // (the first tests' median is now 1, of 4 and 1; the others' 2)
        assertEquals(1, eta.experimentsLeft(), "past the 3 followers: priced as a first");
    }

    @Test
    void aFollowerDiagnosedAsAFirstIsPricedAsOne() {
        // cause X: x1, x2, x3; cause Y: y1. x1's diagnosis is not confirmed, so x2 is diagnosed whole.
        Eta eta = new Eta("test", 2, 6, 2, 1, 40, 1000);
        eta.begin(false, false); // x1
        for (int i = 0; i < 6; i++) {
            eta.ran(1000);
        }
        eta.end();
        eta.begin(false, true); // x2, counted as a follower, diagnosed as a first
        eta.ran(1000);
        assertEquals(5 + 6 + 1, eta.experimentsLeft(), "x2 and y1 at 6 (5 to go for x2), x3 at 1");
        eta.end();
        eta.begin(true, true); // x3 follows x2's confirmed diagnosis
        eta.ran(1000);
        eta.end();
        eta.begin(false, false); // y1
        eta.ran(1000);
        eta.ran(1000);
        assertEquals(4, eta.experimentsLeft(), "no follower left to charge; y1 past the median of 6 and 1: at 6");
    }

    @Test
    void aRunThatOnlyReplaysSaysSo() {
        Eta eta = new Eta("test", 2, 6, 40, 1000);
        assertEquals("no experiment ran (no verdict needed one, or an earlier run recorded them)", eta.outcome());
    }

    @Test
    void unitsThatRanNothingHereCountAsEndedButNotInTheMedian() {
        Eta eta = new Eta("test", 4, 6, 0, 1000);
        eta.begin();
        eta.end(); // replayed whole
        assertEquals(3 * 6, eta.experimentsLeft(), "the prior still: nothing ran");
        eta.begin();
        eta.ran(1000);
        eta.ran(1000);
        eta.end();
        assertEquals(2 * 2, eta.experimentsLeft(), "the median of the unit that ran, for the 2 left");
        eta.begin();
        eta.position(3); // the planner says 3 ended before this one
        eta.ran(1000);
        assertEquals("test 4 of 4, ~1 experiment (~1.0 s) left", eta.text());
    }

    @Test
    void theCapBoundsAUnitAndSplitsAddUnits() {
        Eta eta = new Eta("cause", 1, 50, 20, 0);
        assertEquals(20, eta.predictedExperiments(), "never more than the budget per unit");
        assertEquals(0, eta.leftMillis(), "no cost known");
        assertEquals("predicted ~20 experiments (20 per cause)", eta.prediction());
        eta.begin();
        eta.ran(500);
        eta.end();
        eta.more(2);
        assertEquals(2, eta.experimentsLeft());
        assertEquals("cause 1 of 3, ~2 experiments (~1.0 s) left", eta.text());
    }

    @Test
    void itIsSaidForANewUnitOrAfterAWhile() {
        Eta eta = new Eta("test", 2, 3, 0, 0);
        eta.begin();
        eta.ran(10);
        assertNotNull(eta.due(0));
        eta.ran(10);
        assertNull(eta.due(1_000_000_000L), "the same unit a second later");
        assertNotNull(eta.due(Eta.EVERY_NANOS + 1));
        eta.begin();
        eta.ran(10);
        assertNotNull(eta.due(Eta.EVERY_NANOS + 2), "a new unit");
    }

    @Test
    void detectsExperimentsGiveThePriorCost() {
        Summary.TimeSpent t = new Summary.TimeSpent();
        t.experiments = 10;
        t.jvmMs = 9000;
        t.odrustMs = 1000;
        assertEquals(1000, Eta.perExperiment(t));
        t.cost0Ms = 300L;
        t.testsMs = 2000;
        assertEquals(300 + 300, Eta.perExperiment(t), "a fresh JVM's start, the tests and odrust's own per experiment");
        assertEquals(0, Eta.perExperiment(null));
        t.experiments = 0;
        assertEquals(0, Eta.perExperiment(t));
    }

    @Test
    void aUnitThatOutlastsTheOthersIsPredictedAtThoseThatRanLongerThenAsLongAgainWithinTheCap() {
        // 4 repairs of a cause split in parts, then one that runs to its budget of 100
        Eta eta = new Eta("repair", 6, 20, 100, 1000);
        for (int n : new int[] {4, 4, 7, 4}) {
            eta.begin();
            for (int i = 0; i < n; i++) {
                eta.ran(1000);
            }
            eta.end();
        }
        eta.begin();
        eta.about("cause 2");
        for (int i = 0; i < 3; i++) {
            eta.ran(1000);
        }
        assertEquals(1 + 4, eta.experimentsLeft(), "under the median of 4: 1 more, and the last repair at 4");
        eta.ran(1000);
        eta.ran(1000);
        assertEquals(2 + 4, eta.experimentsLeft(), "past the median: at the one that ran 7");
        for (int i = 0; i < 5; i++) {
            eta.ran(1000);
        }
        assertEquals(20 - 10 + 4, eta.experimentsLeft(), "past every one ended: the prior of 20");
        for (int i = 0; i < 20; i++) {
            eta.ran(1000);
        }
        assertEquals(30 + 4, eta.experimentsLeft(), "past the prior too: as many again as it ran");
        for (int i = 0; i < 40; i++) {
            eta.ran(1000);
        }
        assertEquals(100 - 70 + 4, eta.experimentsLeft(), "never past the budget");
        assertEquals("repair 5 of 6 (cause 2), ~34 experiments (~34.0 s) left", eta.text());
        for (int i = 0; i < 40; i++) {
            eta.ran(1000);
        }
        assertEquals(1 + 4, eta.experimentsLeft(), "at the budget: one to go");
        eta.end();
        assertEquals("repair 5 of 6, ~4 experiments (~4.0 s) left", eta.text(), "the name goes with its unit");
    }

    @Test
    void whatThePlannerKnowsAUnitHasLeftIsTakenForThatExperimentAndNothingIsSaidAfterTheLast() {
        // 3 repairs; the first ends at 10; the second verifies its patch after 12 experiments
        Eta eta = new Eta("repair", 3, 20, 100, 1000);
        eta.begin();
        for (int i = 0; i < 10; i++) {
            eta.ran(1000);
        }
        eta.end();
        eta.begin();
        for (int i = 0; i < 12; i++) {
            eta.ran(1000);
        }
        assertEquals(8 + 10, eta.experimentsLeft(), "past the median of 10, none longer: the prior of 20; then 10");
        eta.knownLeft(3); // a check passed with 3 after it
        eta.ran(1000);
        assertEquals(3 + 10, eta.experimentsLeft());
        assertEquals("repair 2 of 3, ~13 experiments (~13.0 s) left", eta.due(0));
        eta.knownLeft(-1); // a check failed: the engine goes on as it decides
        eta.ran(1000);
        assertEquals(20 - 14 + 10, eta.experimentsLeft(), "the model again");
        eta.knownLeft(0); // the last check passed
        eta.ran(1000);
        assertEquals(0 + 10, eta.experimentsLeft());
        eta.end();
        eta.begin();
        eta.ran(1000);
        assertEquals(10 - 1, eta.experimentsLeft(), "a new unit: the median of 10 and 15, less the one it ran");
        eta.knownLeft(0);
        eta.ran(1000);
        assertEquals(0, eta.experimentsLeft());
        assertNull(eta.due(2 * Eta.EVERY_NANOS), "nothing left to say: the end line follows");
    }

    @Test
    void thePhaseSetsThePredictionAtTheStartAgainstWhatRan() {
        Eta eta = new Eta("repair", 2, 20, 100, 500);
        eta.begin();
        for (int i = 0; i < 3; i++) {
            eta.ran(400);
        }
        eta.end();
        eta.more(1); // a split
        eta.begin();
        eta.ran(600);
        eta.end();
        com.google.gson.JsonObject phase = eta.phase("repair", 0);
        assertEquals("repair", phase.get("phase").getAsString());
        assertEquals(2, phase.get("predicted_units").getAsInt());
        assertEquals(3, phase.get("units").getAsInt());
        assertEquals(4, phase.get("experiments").getAsInt());
        assertEquals(1800, phase.get("actual_ms").getAsLong());
        assertEquals(40, phase.get("predicted_experiments").getAsInt());
        assertEquals(20_000, phase.get("predicted_ms").getAsLong());
        assertNull(phase.get("earlier_records"));
        assertEquals(eta.outcome(), phase.get("text").getAsString());
        assertTrue(phase.get("text").getAsString().startsWith("4 experiments in 1.8 s"), phase.toString());
        assertEquals(7, eta.phase("repair", 7).get("earlier_records").getAsInt());
        assertNull(new Eta("test", 1, 6, 40, 0).phase("diagnose", 0).get("predicted_ms"), "no cost known");
    }
}
