package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.odrust.maven.run.RunResult;
import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SharedIsolationTest {
    private static RunResult run(String... testsAndOutcomes) {
        RunResult r = new RunResult();
        for (int i = 0; i < testsAndOutcomes.length; i += 2) {
            RunResult.TestResult t = new RunResult.TestResult();
            t.test = testsAndOutcomes[i];
            t.outcome = testsAndOutcomes[i + 1];
            r.results.add(t);
        }
        return r;
    }

    @Test
    void everyTestWhoseOutcomeDiffersIsNamedWithBothOutcomesButTheFlakyOnes() {
        RunResult fresh = run("p.A#a", "pass", "p.B#b", "fail", "p.C#coin", "pass", "p.D#d", "pass");
        RunResult shared = run("p.A#a", "pass", "p.B#b", "pass", "p.C#coin", "fail", "p.E#e", "pass");
        assertEquals(
                Arrays.asList(
                        "p.B#b: fail in a fresh JVM, pass in a shared JVM",
                        "p.D#d: pass in a fresh JVM, not run in a shared JVM",
                        "p.E#e: not run in a fresh JVM, pass in a shared JVM"),
                SharedIsolation.differences(fresh, shared, Set.of("p.C#coin")));
        assertEquals(Collections.emptyList(), SharedIsolation.differences(fresh, fresh, Set.of()));
    }

    @Test
    void aTestIsNodWhenItsOutcomeChangesBetweenRunsOfOneOrderInOneKindOfJvm() {
        Set<String> differing = new java.util.LinkedHashSet<>(Arrays.asList("p.N#nod", "p.S#shared", "p.T#late"));
        // p.N#nod: fresh pass, fail, pass; p.S#shared: fresh pass every time, shared fail every time;
        // p.T#late: fresh pass twice, shared fail then pass (the shared JVM's second run agrees).
        java.util.List<RunResult> fresh = Arrays.asList(
                run("p.N#nod", "pass", "p.S#shared", "pass", "p.T#late", "pass"),
                run("p.N#nod", "fail", "p.S#shared", "pass", "p.T#late", "pass"),
                run("p.N#nod", "pass", "p.S#shared", "pass", "p.T#late", "pass"));
        java.util.List<RunResult> shared = Arrays.asList(
                run("p.N#nod", "fail", "p.S#shared", "fail", "p.T#late", "fail"),
                run("p.N#nod", "fail", "p.S#shared", "fail", "p.T#late", "pass"));
        assertEquals(Set.of("p.N#nod", "p.T#late"), SharedIsolation.nodAmong(differing, fresh, shared));
        // a test missing from one run counts as another outcome ("not run")
        java.util.List<RunResult> gone = Arrays.asList(run("p.S#shared", "pass"), run());
        assertEquals(
                Set.of("p.S#shared"),
                SharedIsolation.nodAmong(Set.of("p.S#shared"), gone, Arrays.asList(run("p.S#shared", "fail"))));
    }
}
