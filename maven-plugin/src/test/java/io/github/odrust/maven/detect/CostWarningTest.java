package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a run will cost is said before its first round, in units a person reads, with a warning when long. */
class CostWarningTest {
    @Test
    void durationsReadAtAGlance() {
        assertEquals("10.9 s", Detector.duration(10_900));
        assertEquals("12 min", Detector.duration(12 * 60_000 + 10_000));
        assertEquals("4.5 min", Detector.duration(270_000), "below 10 min, to a tenth");
        assertEquals("3.4 h", Detector.duration(12_240_000));
        assertEquals("4.9 days", Detector.duration(425_260_100L));
    }

    @Test
    void aLongRunIsWarnedAboutUnlessABudgetBoundsIt() {
        // tuscan on a 592-test module: 425260.1 s predicted
        String warning = Detector.costWarning(425_260_100L, 0);
        assertTrue(warning.startsWith("this run is predicted to take 4.9 days"), warning);
        assertTrue(warning.contains("-Dodrust.timeBudget") && warning.contains("dependence-aware"), warning);
        assertNull(Detector.costWarning(425_260_100L, 30 * 60_000), "a time budget shorter than the run bounds it");
        assertNull(Detector.costWarning(20 * 60_000L, 0), "20 minutes is not worth a warning");
        assertNull(Detector.costWarning(null, 0));
    }

    @Test
    void reportsAreRewrittenLessOftenWhenWritingOneTakesLong() {
        assertEquals(30_000_000_000L, Detector.reportInterval(200_000_000L));
        assertEquals(51_000_000_000L, Detector.reportInterval(5_100_000_000L), "a 5.1 s summary: every 51 s");
    }
}
