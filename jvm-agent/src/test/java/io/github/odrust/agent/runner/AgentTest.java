package io.github.odrust.agent.runner;

import static io.github.odrust.agent.runner.Harness.list;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTest {
    @TempDir
    Path dir;

    @Test
    void badPlanIsAnAgentErrorWithStatus3() throws Exception {
        Path events = dir.resolve("e.jsonl");
        Path plan = dir.resolve("plan.tsv");
        Files.write(
                plan, ("odrust-plan\t1\nmode\tsideways\nevents\t" + events + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(3, Agent.run(plan));
        List<Map<String, Object>> out = Harness.read(events);
        assertEquals(1, out.size());
        assertEquals("agent-error", out.get(0).get("event"));
        assertTrue(((String) out.get(0).get("message")).contains("sideways"));
        assertEquals(3, Agent.run(dir.resolve("no-such-plan.tsv")));
    }

    @Test
    void missingCandidateInDiscoverModeIsAnAgentError() throws Exception {
        Harness h = Harness.discover(dir, "SampleJ4Counter", "NoSuchClass").go();
        assertEquals(3, h.status);
        assertEquals("start", h.out.get(0).get("event"));
        assertEquals("class", h.out.get(1).get("event"));
        assertEquals("agent-error", h.out.get(2).get("event"));
        assertTrue(((String) h.out.get(2).get("message")).contains("NoSuchClass"));
        assertEquals(3, h.out.size());
    }

    @Test
    void startEventAndSystemProperties() throws Exception {
        String cp = System.getProperty("java.class.path");
        String scp = System.getProperty("surefire.test.class.path");
        try {
            Harness h = Harness.discover(dir)
                    .line("sysprop", "odrust.agent.test.prop", "va\\tl ue")
                    .line("classpath", "/x/one")
                    .line("classpath", "/x/two")
                    .go()
                    .ok();
            assertEquals("va\tl ue", System.getProperty("odrust.agent.test.prop"));
            assertEquals("/x/one" + File.pathSeparator + "/x/two", System.getProperty("java.class.path"));
            assertEquals(System.getProperty("java.class.path"), System.getProperty("surefire.test.class.path"));
            Map<String, Object> start = h.out.get(0);
            assertTrue(start.get("pid") instanceof Long);
            assertEquals(System.getProperty("java.version"), start.get("java_version"));
            assertEquals("4.13.2", start.get("junit4"));
            assertEquals("discover", start.get("mode"));
            assertEquals(2, h.out.size());
        } finally {
            System.setProperty("java.class.path", cp);
            if (scp == null) {
                System.clearProperty("surefire.test.class.path");
            } else {
                System.setProperty("surefire.test.class.path", scp);
            }
        }
    }

    @Test
    void frameworksLineLimitsDiscovery() throws Exception {
        Harness h = Harness.discover(dir, "SampleJ5Counter", "SampleJ4Counter")
                .line("frameworks", "junit4")
                .go()
                .ok();
        List<Map<String, Object>> classes = h.events("class");
        assertEquals(1, classes.size());
        assertEquals(Harness.P + "SampleJ4Counter", classes.get(0).get("class"));
        List<Map<String, Object>> warnings = h.events("warning");
        assertEquals(1, warnings.size());
        assertEquals(Harness.P + "SampleJ5Counter", warnings.get(0).get("class"));

        Harness g = Harness.discover(dir, "SampleJ5Counter", "SampleJ4Counter")
                .line("frameworks", "junit5")
                .go()
                .ok();
        assertEquals(1, g.events("class").size());
        assertEquals(Harness.P + "SampleJ5Counter", g.events("class").get(0).get("class"));
        assertEquals(1, g.events("warning").size());
    }

    /** Forks a JVM through Main: a test calling System.exit leaves an exit record naming it. */
    @Test
    void systemExitInATestIsRecordedByTheShutdownHook() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Counter", "a")
                .segment("junit4", "SampleJ4Exits", "exits")
                .segment("junit4", "SampleJ4Counter", "b");
        Path plan = dir.resolve("fork-plan.tsv");
        Files.write(plan, h.plan.toString().getBytes(StandardCharsets.UTF_8));
        int status = fork(plan);
        assertEquals(7, status);
        List<Map<String, Object>> out = Harness.read(h.events);
        List<String> kinds = new ArrayList<>();
        for (Map<String, Object> e : out) {
            kinds.add((String) e.get("event"));
        }
        assertEquals(list("start", "segment", "test-start", "test", "segment", "test-start", "exit"), kinds);
        Map<String, Object> exit = out.get(out.size() - 1);
        assertEquals(Harness.P + "SampleJ4Exits#exits", exit.get("test"));
        assertNull(exit.get("status"));

        Harness ok = Harness.run(dir)
                .segment("junit4", "SampleJ4Counter", "b", "a")
                .segment("junit5", "SampleJ5Counter", "a");
        Files.write(plan, ok.plan.toString().getBytes(StandardCharsets.UTF_8));
        assertEquals(0, fork(plan));
        ok.out = Harness.read(ok.events);
        assertEquals(list("SampleJ4Counter#b", "SampleJ4Counter#a", "SampleJ5Counter#a"), ok.ran());
        assertEquals("end", ok.out.get(ok.out.size() - 1).get("event"));

        // The JVM's clock at the runner's start, its first test's start and its end: in that order,
        // and on no other test-start (docs/protocol.md, "Events").
        long start = ((Number) ok.events("start").get(0).get("uptime_ms")).longValue();
        List<Map<String, Object>> starts = ok.events("test-start");
        long first = ((Number) starts.get(0).get("uptime_ms")).longValue();
        long end = ((Number) ok.events("end").get(0).get("uptime_ms")).longValue();
        assertTrue(0 < start && start <= first && first <= end, start + " " + first + " " + end);
        for (Map<String, Object> later : starts.subList(1, starts.size())) {
            assertFalse(later.containsKey("uptime_ms"), later.toString());
        }
    }

    private static int fork(Path plan) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                io.github.odrust.agent.Main.class.getName(),
                plan.toString());
        pb.redirectErrorStream(true);
        pb.redirectOutput(plan.resolveSibling("fork-output.txt").toFile());
        Process p = pb.start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "forked agent did not finish");
        return p.exitValue();
    }
}
