package io.github.odrust.maven.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fresh JVMs started ahead of need: a "JVM" here is a shell that says whether it got its plan on
 * its command line or, started ahead, on its standard input.
 */
class SparesTest {
    @TempDir
    Path dir;

    @AfterEach
    void off() {
        Spares.enable(false);
    }

    /** `sh -c SCRIPT x -cp JAR Main PLAN`: $4 is the plan, or --await. */
    private TestJvm.Spec spec(String pidFile) {
        TestJvm.Spec spec = new TestJvm.Spec();
        spec.java = "sh";
        spec.jvmArgs = new ArrayList<>(Arrays.asList(
                "-c",
                "echo $$ >> " + pidFile + "; if [ \"$4\" = --await ]; then read p || exit 0; echo \"awaited $p\"; "
                        + "else echo \"direct $4\"; fi",
                "x"));
        spec.workingDirectory = dir.toFile();
        spec.timeoutSeconds = 60;
        return spec;
    }

    private String run(TestJvm.Spec spec, String plan, boolean spare) throws Exception {
        Path log = dir.resolve(plan + ".log");
        TestJvm.Exit exit = TestJvm.run(spec, dir.resolve("cp.jar"), dir.resolve(plan), log, () -> {}, spare);
        assertEquals(0, exit.exitCode);
        return Files.readString(log, StandardCharsets.UTF_8).trim();
    }

    @Test
    void aRepeatedKindOfJvmGetsTheNextOneStartedAheadAndItTakesThePlanOnItsInput() throws Exception {
        Spares.enable(true);
        TestJvm.Spec spec = spec(dir.resolve("pids").toString());
        String plan = dir.toAbsolutePath().toString();
        assertEquals("direct " + plan + "/p1", run(spec, "p1", true));
        assertEquals(0, Spares.waiting(), "one run of a kind starts nothing ahead");
        assertEquals("direct " + plan + "/p2", run(spec, "p2", true));
        assertEquals(1, Spares.waiting(), "the second one starts the next ahead");
        assertEquals("awaited " + plan + "/p3", run(spec, "p3", true));
        assertEquals("awaited " + plan + "/p4", run(spec, "p4", true));
        assertEquals(2, Spares.taken());
        // a run with options of its own never takes one
        assertEquals("direct " + plan + "/p5", run(spec, "p5", false));
        assertEquals(1, Spares.waiting());
        // another kind (another directory) does not take it
        TestJvm.Spec other = spec(dir.resolve("pids").toString());
        Files.createDirectories(dir.resolve("elsewhere"));
        other.workingDirectory = dir.resolve("elsewhere").toFile();
        assertEquals("direct " + plan + "/p6", run(other, "p6", true));
        assertEquals(2, Spares.taken());
        Spares.close();
        assertEquals(0, Spares.waiting());
        for (String pid : Files.readAllLines(dir.resolve("pids"))) {
            ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(h -> {
                h.onExit().join();
                assertFalse(h.isAlive(), "pid " + pid);
            });
        }
    }

    @Test
    void offStartsNothingAhead() throws Exception {
        Spares.enable(false);
        TestJvm.Spec spec = spec(dir.resolve("pids").toString());
        for (int i = 1; i <= 3; i++) {
            assertEquals("direct " + dir.toAbsolutePath() + "/p" + i, run(spec, "p" + i, true));
        }
        assertEquals(0, Spares.waiting());
        assertEquals(0, Spares.taken());
    }
}
