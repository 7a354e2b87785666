package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.odrust.engine.protocol.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;

/** The console names a cleaner search that stopped early or never started, never "none". */
class ConsoleReportTest {
    private static final class Recording extends SystemStreamLog {
        final List<String> lines = new ArrayList<>();

        @Override
        public void info(CharSequence content) {
            lines.add(content.toString().trim());
        }
    }

    private static List<String> explained(Map<String, List<String>> cleaners, List<String> unfinished) {
        Summary.FlakyTest f = new Summary.FlakyTest();
        f.test = "p.V#v";
        f.kind = "victim";
        f.polluters = List.of(List.of("p.P#p"), List.of("p.Q#q"), List.of("p.R#r"));
        f.cleaners = cleaners;
        f.cleanersUnfinished = unfinished;
        f.minimizeComplete = unfinished.isEmpty();
        Recording log = new Recording();
        ConsoleReport.explain(f, log);
        return log.lines;
    }

    @Test
    void aCompleteExplanationSaysNone() {
        assertEquals(
                List.of(
                        "polluters: p.P#p, p.Q#q, p.R#r",
                        "cleaners of p.P#p: none",
                        "cleaners of p.Q#q: p.C#c",
                        "cleaners of p.R#r: none"),
                explained(Map.of("p.P#p", List.of(), "p.Q#q", List.of("p.C#c"), "p.R#r", List.of()), List.of()));
    }

    @Test
    void aSearchCutShortOrNotStartedIsSaidSo() {
        assertEquals(
                List.of(
                        "polluters: p.P#p, p.Q#q, p.R#r",
                        "cleaners of p.P#p: none",
                        "cleaners of p.Q#q: p.C#c so far (the search stopped early; see the notes)",
                        "cleaners of p.R#r: not searched (the search stopped early; see the notes)"),
                explained(Map.of("p.P#p", List.of(), "p.Q#q", List.of("p.C#c")), List.of("p.Q#q", "p.R#r")));
    }

    @Test
    void nothingFoundSaysHowMuchWasExplored() {
        Summary s = new Summary();
        s.roundsRun = 3;
        s.roundsPlanned = 40;
        s.strategy = "tuscan";
        s.pairs = new Summary.PairsCovered();
        s.pairs.covered = 120;
        s.pairs.total = 17_000;
        assertEquals(
                "no order-dependent or flaky test found in 3 of 40 rounds (tuscan), which ran 0.7% of the 17000"
                        + " test pairs the schedule covers: a victim of a pair not run yet can still exist",
                ConsoleReport.nothingFound(s));
        s.pairs.covered = 17_000;
        assertEquals(
                "no order-dependent or flaky test found in 3 of 40 rounds (tuscan), which ran all of the 17000 test"
                        + " pairs the schedule covers",
                ConsoleReport.nothingFound(s));
        s.pairs = null;
        s.strategy = "reverse-passing";
        assertEquals(
                "no order-dependent or flaky test found in 3 of 40 rounds (reverse-passing): random orders find an"
                        + " order-dependent test only with some probability per round",
                ConsoleReport.nothingFound(s));
    }

    @Test
    void testCountsSayWhatIsCounted() {
        Summary s = new Summary();
        s.testsTotal = 592;
        s.resultsPerRun = 991;
        assertEquals("592 tests (991 results per run, as mvn test counts invocations)", ConsoleReport.tests(s));
        s.resultsPerRun = 592;
        assertEquals("592 tests", ConsoleReport.tests(s));
        s.testsTotal = 1;
        s.resultsPerRun = null;
        assertEquals("1 test", ConsoleReport.tests(s));
    }

    @Test
    void theSummaryShowsEachTestsAssertionMessage() {
        Summary.FlakyTest f = new Summary.FlakyTest();
        f.test = "p.V#v";
        f.kind = "victim";
        f.message = "expected: <0> but was: <1>\n\tat p.V.v(V.java:12)";
        Recording log = new Recording();
        ConsoleReport.explain(f, log);
        assertEquals(List.of("message: expected: <0> but was: <1>"), log.lines);
        assertEquals(200, ConsoleReport.firstLine("x".repeat(500)).length());
    }
}
