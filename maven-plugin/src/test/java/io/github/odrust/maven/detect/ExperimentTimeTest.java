package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.github.odrust.maven.run.RunResult;
import org.junit.jupiter.api.Test;

class ExperimentTimeTest {
    private static RunResult.Jvm jvm(long millis, Long start, Long firstTest, Long end) {
        RunResult.Jvm jvm = new RunResult.Jvm();
        jvm.millis = millis;
        jvm.startMs = start;
        jvm.firstTestMs = firstTest;
        jvm.endMs = end;
        return jvm;
    }

    @Test
    void aJvmsWallTimeSplitsByItsOwnClock() {
        assertArrayEquals(
                new long[] {120, 380, 300, 200}, jvm(1000, 120L, 500L, 800L).phases());
        // No test started (a class-level failure): all of it is setup.
        assertArrayEquals(
                new long[] {120, 680, 0, 200}, jvm(1000, 120L, null, 800L).phases());
        // A JVM that died before `end` (or an older runner) did not report its clock.
        assertNull(jvm(1000, 120L, 500L, null).phases());
        assertNull(jvm(1000, null, null, null).phases());
    }

    @Test
    void anExperimentsTimeAddsItsJvmsAndOdrustsOwnTime() {
        RunResult result = new RunResult();
        result.jvms.add(jvm(1000, 120L, 500L, 800L));
        result.jvms.add(jvm(600, 100L, 300L, 500L));
        JsonObject t = Detector.time(result, 1700, 40);
        assertEquals(1600, t.get("jvm_ms").getAsLong());
        assertEquals(220, t.get("boot_ms").getAsLong());
        assertEquals(580, t.get("setup_ms").getAsLong());
        assertEquals(500, t.get("tests_ms").getAsLong());
        assertEquals(300, t.get("exit_ms").getAsLong());
        // 100 ms of the experiment outside its JVMs, and 40 ms of engine calls before it.
        assertEquals(140, t.get("odrust_ms").getAsLong());
        String text = Detector.cost0Text(t);
        assertTrue(text.contains("start-up cost per experiment 1.1 s"), text);

        // One JVM without its clock: the parts are left out rather than guessed.
        result.jvms.add(jvm(300, null, null, null));
        JsonObject partial = Detector.time(result, 2000, 0);
        assertEquals(1900, partial.get("jvm_ms").getAsLong());
        assertFalse(partial.has("boot_ms"));
        assertEquals("", Detector.cost0Text(partial));
    }
}
