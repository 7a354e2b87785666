package io.github.odrust.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's audit mode end to end, in a forked JVM: a capture at each segment, before each test
 * of the classes asked for and at the end; the classes initialized between points; a class
 * initialized right before the segment that initialized it in an earlier run.
 */
class AuditIT {
    static final String S = CaptureIT.S;

    @TempDir
    Path dir;

    @BeforeAll
    static void locate() throws IOException {
        RecordIT.locate();
    }

    /** The JDK of the forked JVMs. */
    String javaHome = System.getProperty("java.home");

    RecordIT.Run fork(String options, String... tests) throws Exception {
        CaptureIT c = new CaptureIT();
        c.dir = dir;
        c.javaHome = javaHome;
        return c.fork(options, tests);
    }

    /** Audit mode on this JDK and every other JDK 17+ installed beside it. */
    @Test
    void capturesOnEveryInstalledJdk() throws Exception {
        for (String jdk : CaptureIT.jdks()) {
            javaHome = jdk;
            Files.deleteIfExists(dir.resolve("points/points.jsonl"));
            capturesAtEverySegmentTheTestsAskedForAndTheEnd();
        }
    }

    String options(String... extra) {
        StringBuilder b = new StringBuilder("mode audit\nroot " + RecordIT.testClasses.toAbsolutePath() + "\n")
                .append("captures ")
                .append(dir.resolve("points"))
                .append('\n');
        for (String e : extra) {
            b.append(e).append('\n');
        }
        return b.toString();
    }

    @Test
    void capturesAtEverySegmentTheTestsAskedForAndTheEnd() throws Exception {
        fork(
                        options("capture-tests " + S + "StatePolluterTest"),
                        "StatePolluterTest#pollutes",
                        "StateVictimTest#expectsIdleRegistry")
                .test(S + "StatePolluterTest#pollutes");
        List<String> points = Files.readAllLines(dir.resolve("points/points.jsonl"));
        assertEquals(4, points.size(), String.join("\n", points));
        assertTrue(
                points.get(0).contains("\"at\":\"class\"") && points.get(0).contains("\"segment\":0"), points.get(0));
        assertTrue(points.get(1).contains("\"at\":\"test\"") && points.get(1).contains("StatePolluterTest#pollutes"));
        assertTrue(points.get(2).contains("\"at\":\"class\"") && points.get(2).contains("\"segment\":1"));
        assertTrue(points.get(3).contains("\"at\":\"end\""), points.get(3));
        // the holder is initialized by the polluter: new at the point after it, not before
        assertFalse(points.get(1).contains(S + "StateHolder\""), points.get(1));
        assertTrue(points.get(2).contains(S + "StateHolder\""), points.get(2));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"capture\":\"(point-[0-9]+-3\\.xml)\"")
                .matcher(points.get(2));
        assertTrue(m.find(), points.get(2));
        for (String p : points) {
            java.util.regex.Matcher c =
                    java.util.regex.Pattern.compile("\"capture\":\"([^\"]+)\"").matcher(p);
            assertTrue(c.find() && Files.isRegularFile(dir.resolve("points").resolve(c.group(1))), p);
            assertTrue(p.contains("\"jvm\":\""), p);
        }
        String after = CaptureIT.read(dir.resolve("points").resolve(m.group(1)));
        assertTrue(after.contains("<class name=\"" + S + "StateHolder\" initialized=\"true\">"), after);
    }

    @Test
    void initializesAClassBeforeItsSegmentAndTracesWithoutCaptures() throws Exception {
        fork(
                options("initialize-at 0 " + S + "StateHolder", "trace-only true"),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsIdleRegistry");
        List<String> points = Files.readAllLines(dir.resolve("points/points.jsonl"));
        assertEquals(3, points.size(), String.join("\n", points));
        assertTrue(points.get(0).contains("\"initialized\":[\"" + S + "StateHolder\"]"), points.get(0));
        assertTrue(points.get(0).contains(S + "StateHolder\""), points.get(0));
        assertFalse(points.get(0).contains("\"capture\""), points.get(0));
        try (java.util.stream.Stream<Path> files = Files.list(dir.resolve("points"))) {
            assertEquals(1, files.count(), "only points.jsonl");
        }
    }
}
