package io.github.odrust.maven.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A test JVM's leftovers are killed and named; its log is capped at head and tail. */
class TestJvmTest {
    @TempDir
    Path dir;

    @Test
    void aProcessTheTestsLeftRunningIsKilledAndNamed() throws Exception {
        // like a test that starts `sleep 1000` and returns normally
        Process p = new ProcessBuilder("sh", "-c", "sleep 1000 & echo started $!; sleep 1")
                .redirectErrorStream(true)
                .start();
        TestJvm.Exit exit = TestJvm.watch(p, 60, dir.resolve("jvm.log"), 1 << 20, 1 << 20, () -> {});
        assertFalse(exit.timedOut);
        assertEquals(1, exit.leftovers.size(), exit.leftovers.toString());
        assertTrue(exit.leftovers.get(0).contains("sleep 1000"), exit.leftovers.toString());
        String log = Files.readString(dir.resolve("jvm.log"), StandardCharsets.UTF_8);
        long pid = Long.parseLong(log.replaceAll("(?s).*started (\\d+).*", "$1"));
        Optional<ProcessHandle> child = ProcessHandle.of(pid);
        for (int i = 0; i < 50 && child.isPresent() && child.get().isAlive(); i++) {
            Thread.sleep(100);
        }
        assertFalse(child.isPresent() && child.get().isAlive(), "pid " + pid + " still runs");
    }

    @Test
    void aSharedJvmHasOdrustsAgentOnceAfterTheArgLine() {
        TestJvm.Spec spec = new TestJvm.Spec();
        spec.java = "java";
        spec.jvmArgs.add("-javaagent:/m2/jacoco.jar=destfile=x");
        Path agent = Paths.get("/m2/odrust-jvm-agent.jar");
        List<String> serve = TestJvm.serveCommand(spec, agent, Paths.get("/t/cp.jar"));
        assertEquals(
                List.of(
                        "java",
                        "-javaagent:/m2/jacoco.jar=destfile=x",
                        "-javaagent:/m2/odrust-jvm-agent.jar=serve",
                        "-cp",
                        "/t/cp.jar",
                        "io.github.odrust.agent.Main",
                        "--serve"),
                serve);
        // A mode that brings the agent with its own options (detect-id's shuffling) keeps just that one.
        TestJvm.Spec shuffled = spec.withJvmArg("-javaagent:/m2/odrust-jvm-agent.jar=/t/shuffle.options");
        List<String> once = TestJvm.serveCommand(shuffled, agent, Paths.get("/t/cp.jar"));
        assertEquals(
                1,
                once.stream().filter(a -> a.startsWith("-javaagent:/m2/odrust")).count(),
                once.toString());
        assertTrue(once.contains("-javaagent:/m2/odrust-jvm-agent.jar=/t/shuffle.options"), once.toString());
        assertTrue(spec.jvmArgs.size() == 1, "the spec is left as it was: " + spec.jvmArgs);
    }

    @Test
    void aNormalEndLeavesNothing() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "echo hello").start();
        TestJvm.Exit exit = TestJvm.watch(p, 60, dir.resolve("jvm.log"), 100, 100, () -> {});
        assertEquals(0, exit.exitCode);
        assertTrue(exit.leftovers.isEmpty());
        assertEquals("hello\n", Files.readString(dir.resolve("jvm.log")));
    }

    @Test
    void aNoisyLogKeepsItsHeadAndTailAndSaysWhatWasCut() throws Exception {
        // 100,000 numbered lines (588,895 bytes); keep 1000 + 2000 bytes
        Process p = new ProcessBuilder("sh", "-c", "seq 1 100000").start();
        TestJvm.watch(p, 60, dir.resolve("jvm.log"), 1000, 2000, () -> {});
        String log = Files.readString(dir.resolve("jvm.log"));
        assertTrue(log.startsWith("1\n2\n3\n"), log.substring(0, 20));
        assertTrue(log.endsWith("99999\n100000\n"), log.substring(log.length() - 20));
        assertTrue(
                log.contains(
                        "[odrust: 585895 bytes of output cut here; the log keeps the first 1000 and the last 2000 of 588895]"),
                log);
        assertTrue(log.length() < 1000 + 2000 + 200, "log of " + log.length() + " bytes");
    }
}
