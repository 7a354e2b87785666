package io.github.odrust.maven.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RunResult#failedTests}: what a split cause's rule-out (WholeRuns) counts as failing. */
class RunResultTest {
    @Test
    void failedTestsAreThoseThatRanAndDidNotPassInTheirOrder() {
        JsonArray results = JsonParser.parseString("["
                        + "{\"test\":\"p.A#pass\",\"outcome\":\"pass\"},"
                        + "{\"test\":\"p.A#fail\",\"outcome\":\"fail\"},"
                        + "{\"test\":\"p.A#skipped\",\"outcome\":\"skipped\"},"
                        + "{\"test\":\"p.A#error\",\"outcome\":\"error\"},"
                        + "{\"test\":\"p.A#notRun\",\"outcome\":\"not-run\"},"
                        + "{\"test\":\"p.A#timeout\",\"outcome\":\"timeout\"},"
                        + "{\"test\":\"p.A#crash\",\"outcome\":\"crash\"},"
                        + "{\"test\":\"p.A#exit\",\"outcome\":\"exit\"},"
                        + "{\"test\":\"p.A#unknown\"}]")
                .getAsJsonArray();
        assertEquals(
                List.of("p.A#fail", "p.A#error", "p.A#timeout", "p.A#crash", "p.A#exit"),
                RunResult.failedTests(results));
        assertEquals(List.of(), RunResult.failedTests(null));
        assertEquals(List.of(), RunResult.failedTests(new JsonArray()));
    }
}
