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
}
