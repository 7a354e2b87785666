package io.github.odrust.agent.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.runner.Harness;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real shared JVM ({@code Main --serve}) running plan after plan. */
class ServerTest {
    private static final String P = "io.github.odrust.agent.samples.";

    @TempDir
    Path dir;

    private Process server;
    private OutputStream control;
    private int plans;

    @BeforeEach
    void start() throws IOException {
        start("-Duser.timezone=UTC");
    }

    /** Starts the server as the plugin does, with {@code options} among its JVM options. */
    private void start(String... options) throws IOException {
        List<String> withAgent = new ArrayList<>(Arrays.asList(options));
        withAgent.add("-javaagent:" + agentJar() + "=serve");
        startWithout(withAgent.toArray(new String[0]));
    }

    /** Starts the server with {@code options} and no -javaagent of its own. */
    private void startWithout(String... options) throws IOException {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        List<String> command =
                new ArrayList<>(Arrays.asList(java, "-Duser.timezone=UTC", "-Duser.language=en", "-Duser.country=US"));
        command.addAll(Arrays.asList(options));
        command.addAll(Arrays.asList(
                "-cp", System.getProperty("java.class.path"), io.github.odrust.agent.Main.class.getName(), "--serve"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve("server.log").toFile());
        server = pb.start();
        control = server.getOutputStream();
    }

    /**
     * The agent jar's manifest alone (its classes are on the server's classpath, which a
     * -javaagent jar's premain class is loaded from too: the jar is built only after these tests).
     */
    private Path agentJar() throws IOException {
        Path jar = dir.resolve("agent.jar");
        if (!Files.exists(jar)) {
            java.util.jar.Manifest manifest = new java.util.jar.Manifest();
            manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes()
                    .putValue("Premain-Class", io.github.odrust.agent.record.RecordAgent.class.getName());
            try (OutputStream out = Files.newOutputStream(jar);
                    java.util.jar.JarOutputStream j = new java.util.jar.JarOutputStream(out, manifest)) {
                j.flush();
            }
        }
        return jar;
    }

    @AfterEach
    void stop() throws Exception {
        control.close();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly();
        }
    }

    /** Sends one plan of {@code tests} (ids "SampleClass#m", one class) and waits for its .done file. */
    private Served serve(String cls, String... methods) throws Exception {
        int n = ++plans;
        Path events = dir.resolve("events-" + n + ".jsonl");
        StringBuilder plan = new StringBuilder("odrust-plan\t1\nmode\trun\nevents\t" + events + "\n");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            plan.append("classpath\t").append(entry).append('\n');
        }
        plan.append("sysprop\todrust.sample.out\t")
                .append(dir.resolve("seen.txt"))
                .append('\n');
        plan.append("segment\tjunit4\t").append(P).append(cls).append('\n');
        for (String m : methods) {
            plan.append("test\t").append(P).append(cls).append('#').append(m).append('\n');
        }
        Path planFile = dir.resolve("plan-" + n + ".tsv");
        Files.write(planFile, plan.toString().getBytes(StandardCharsets.UTF_8));
        control.write((planFile + "\n").getBytes(StandardCharsets.UTF_8));
        control.flush();
        Path done = dir.resolve("events-" + n + ".jsonl.done");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(done)) {
            assertTrue(server.isAlive() || Files.exists(done), "the server ended: " + log());
            assertTrue(System.nanoTime() < deadline, "no " + done + ": " + log());
            Thread.sleep(10);
        }
        return new Served(Harness.read(events), new String(Files.readAllBytes(done), StandardCharsets.UTF_8));
    }

    private String log() throws IOException {
        Path log = dir.resolve("server.log");
        return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
    }

    static final class Served {
        final List<Map<String, Object>> events;
        final String done;

        Served(List<Map<String, Object>> events, String done) {
            this.events = events;
            this.done = done;
        }

        List<String> outcomes() {
            List<String> l = new ArrayList<>();
            for (Map<String, Object> e : events) {
                if ("test".equals(e.get("event"))) {
                    l.add(e.get("outcome") + (e.get("message") == null ? "" : " " + e.get("message")));
                }
            }
            return l;
        }
    }

    @Test
    void staticFieldsOfTheProjectAndOfALibraryAreFreshInTheNextOrder() throws Exception {
        for (int i = 0; i < 3; i++) {
            Served s = serve("SampleShared", "staticIsFresh");
            assertEquals(Arrays.asList("pass"), s.outcomes(), "order " + (i + 1));
            assertTrue(s.done.contains("\"status\":0"), s.done);
            assertTrue(s.done.contains("\"leaked_threads\":[]") && s.done.contains("\"not_restored\":[]"), s.done);
            assertEquals("end", s.events.get(s.events.size() - 1).get("event"));
        }
        List<String> seen = Files.readAllLines(dir.resolve("seen.txt"));
        assertEquals(3, seen.size());
        // A new copy of the project class and of Gson's class in each order; JUnit's, kept.
        assertEquals(3, seen.stream().map(l -> l.split(" ")[0]).distinct().count(), seen.toString());
        assertEquals(3, seen.stream().map(l -> l.split(" ")[1]).distinct().count(), seen.toString());
        assertEquals(1, seen.stream().map(l -> l.split(" ")[2]).distinct().count(), seen.toString());
    }

    @Test
    void theTestFrameworksJarsAreTheOnesKeptBetweenOrders() {
        for (String jar : Arrays.asList(
                "junit-4.13.2.jar",
                "hamcrest-core-1.3.jar",
                "hamcrest-2.2.jar",
                "junit-jupiter-api-5.10.2.jar",
                "junit-jupiter-5.10.2.jar",
                "junit-platform-launcher-1.10.2.jar",
                "junit-vintage-engine-5.10.2.jar",
                "opentest4j-1.3.0.jar",
                "apiguardian-api-1.1.2.jar")) {
            assertTrue(IsolatingLoader.isFramework("/m2/x/" + jar), jar);
        }
        for (String other : Arrays.asList(
                "gson-2.10.1.jar",
                "junit-pioneer-2.2.0.jar",
                "mockito-junit-jupiter-5.0.jar",
                "assertj-core-3.24.2.jar",
                "target/test-classes",
                "junitparams-1.1.1.jar")) {
            assertFalse(IsolatingLoader.isFramework("/m2/x/" + other), other);
        }
    }

    @Test
    void theJdkStateATestChangesIsRestoredForTheNextOrder() throws Exception {
        Served changed = serve("SampleJdkState", "changesEverything");
        assertEquals(Arrays.asList("pass"), changed.outcomes());
        assertTrue(changed.done.contains("\"not_restored\":[]"), changed.done);
        Served next = serve("SampleJdkState", "seesDefaults", "seesNoAuthenticator");
        assertEquals(Arrays.asList("pass", "pass"), next.outcomes());
        // Each order's clock starts when the server picks it up, not when the JVM started.
        long start = ((Number) next.events.get(0).get("uptime_ms")).longValue();
        long end = ((Number) next.events.get(next.events.size() - 1).get("uptime_ms")).longValue();
        assertTrue(0 <= start && start <= end && end < 30_000, start + " " + end);
    }

    @Test
    void theHttpsDefaultsAreNotMadeBeforeATestSetsThem() throws Exception {
        // As in a fresh JVM: a default SSL context a test sets is the one HTTPS connections use,
        // which fails if the server made the socket factory from the JDK's own context first.
        Served sets =
                serve("SampleJdkState", "setsTheDefaultSslContext", "cannotOpenJavaxNetSsl", "cannotReachJdkInternals");
        assertEquals(Arrays.asList("pass", "pass", "pass"), sets.outcomes());
        assertTrue(sets.done.contains("\"not_restored\":[]"), sets.done);
        // Put back: the JDK's own, made by this order...
        Served next = serve("SampleJdkState", "seesTheJdksSslContext");
        assertEquals(Arrays.asList("pass"), next.outcomes());
        // ...and unmade again after it.
        Served again = serve("SampleJdkState", "setsTheDefaultSslContext");
        assertEquals(Arrays.asList("pass"), again.outcomes());
    }

    @Test
    void theDefaultTimeZoneIsNotMadeBeforeATestSetsItsProperty() throws Exception {
        // As in a fresh JVM: the default time zone is made from user.timezone on first use.
        Served sets = serve("SampleJdkState", "setsTheTimeZoneProperty");
        assertEquals(Arrays.asList("pass"), sets.outcomes());
        // Put back: the property, and the zone made from it by this order...
        Served next = serve("SampleJdkState", "seesDefaults");
        assertEquals(Arrays.asList("pass"), next.outcomes());
        // ...unmade again after it.
        Served again = serve("SampleJdkState", "setsTheTimeZoneProperty");
        assertEquals(Arrays.asList("pass"), again.outcomes());
        assertTrue(again.done.contains("\"not_restored\":[]"), again.done);
    }

    @Test
    void loggingATestConfiguredIsPutBackForTheNextOrder() throws Exception {
        // The first order starts java.util.logging in this JVM, the second finds it started.
        for (int i = 0; i < 2; i++) {
            Served changed = serve("SampleJul", "changesLogging");
            assertEquals(Arrays.asList("pass"), changed.outcomes(), "order " + (i + 1));
            assertTrue(changed.done.contains("\"not_restored\":[]"), changed.done);
        }
        Served next = serve("SampleJul", "seesTheConfiguredDefaults");
        assertEquals(Arrays.asList("pass"), next.outcomes());
    }

    @Test
    void loggingIsNotStartedBeforeATestNamesItsConfiguration() throws Exception {
        Served first = serve("SampleJul", "namesItsConfigurationBeforeLogging");
        assertEquals(Arrays.asList("pass"), first.outcomes());
        assertTrue(first.done.contains("\"not_restored\":[]"), first.done);
        // the configuration read again with the properties put back: the JDK's, as a fresh JVM's
        Served next = serve("SampleJul", "seesTheConfiguredDefaults");
        assertEquals(Arrays.asList("pass"), next.outcomes());
        // Logging has started in this JVM now: a test that names its configuration runs without
        // it, which a fresh JVM would not do; said, so that the JVM retires.
        Served again = serve("SampleJul", "namesItsConfigurationBeforeLogging");
        assertEquals(1, again.outcomes().size());
        assertTrue(again.outcomes().get(0).startsWith("fail"), again.outcomes().toString());
        assertTrue(
                again.done.contains("a test set java.util.logging.config.file after logging had started in this JVM"),
                again.done);
    }

    @Test
    void withoutItsAgentTheServerSaysWhatItCannotRestore() throws Exception {
        stop();
        startWithout();
        Served s = serve("SampleJdkState", "seesNoAuthenticator");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(log().contains("has no odrust -javaagent to open java.util and javax.net.ssl with"), log());
    }

    @Test
    void aJdbcDriverFoundAsAServiceServesEveryOrderAndIsReleasedAfterIt() throws Exception {
        // DriverManager looks for service drivers once per JVM, with the first order's loader: the
        // next orders found no driver their classes could use ("No suitable driver")
        for (int i = 1; i <= 3; i++) {
            assertEquals(
                    Arrays.asList("pass"), serve("SampleJdbc", "connects").outcomes(), "order " + i + ": " + log());
        }
        // each order's driver was deregistered at its end: DriverManager holds no order's loader
        List<String> seen = Files.readAllLines(dir.resolve("seen.txt"), StandardCharsets.UTF_8);
        assertEquals(Arrays.asList("deregistered", "deregistered", "deregistered"), seen, log());
    }

    @Test
    void aThreadLeftRunningIsReported() throws Exception {
        Served s = serve("SampleLeaks", "leavesAThreadRunning");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(s.done.contains("\"leaked_threads\":[\"odrust-sample-leak (daemon)\"]"), s.done);
    }

    @Test
    void theJdksProcessReaperIsNotALeak() throws Exception {
        Served s = serve("SampleLeaks", "runsAProcess");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        // The reaper the order made (on JDK 17 with the order's loader as its context class
        // loader) idles a minute: not the order's leak, the JVM stays usable, and a real leak
        // after it is still reported. (From JDK 19 on the reaper never counted: this guards 17.)
        assertTrue(s.done.contains("\"leaked_threads\":[]"), s.done);
        Served leak = serve("SampleLeaks", "leavesAThreadRunning");
        assertTrue(leak.done.contains("\"leaked_threads\":[\"odrust-sample-leak (daemon)\"]"), leak.done);
    }

    @Test
    void aJvmWhoseMetaspaceStaysFullAfterAnOrderIsRetired() throws Exception {
        // Any class metadata at all is over a share this small: the order says why no more run.
        stop();
        start("-XX:MaxMetaspaceSize=128m", "-Dodrust.serve.full=0.000001");
        Served s = serve("SampleLeaks", "runsAProcess");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(s.done.contains("the shared JVM's Metaspace is "), s.done);
        assertTrue(s.done.contains("earlier orders are still held"), s.done);
        // At the usual share, an order of a few tests leaves it usable.
        stop();
        start("-XX:MaxMetaspaceSize=128m");
        Served usual = serve("SampleLeaks", "runsAProcess");
        assertTrue(usual.done.contains("\"not_restored\":[]"), usual.done);
    }

    @Test
    void aJvmWideFactoryATestSetIsReportedAsNotRestored() throws Exception {
        Served s = serve("SampleLeaks", "setsAUrlFactory");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(s.done.contains("URL.setURLStreamHandlerFactory"), s.done);
        // Why it matters: in the same JVM the next order that sets it fails.
        Served again = serve("SampleLeaks", "setsAUrlFactory");
        assertNotEquals(Arrays.asList("pass"), again.outcomes());
    }

    @Test
    void idlePoolWorkersAreKept() throws Exception {
        // A fixed pool's worker takes its next task, untimed; a cached pool's polls with its
        // keep-alive time: neither runs again without a task, which only their order could give.
        Served fixed = serve("SampleIdle", "leavesAFixedPool");
        assertEquals(Arrays.asList("pass"), fixed.outcomes());
        assertThreads(fixed, "", "\"odrust-sample-fixed-1\"");
        assertTrue(fixed.done.contains("\"not_restored\":[]"), fixed.done);
        // The next order finds the kept worker still idle, and keeps its own.
        Served cached = serve("SampleIdle", "leavesACachedPool");
        assertThreads(cached, "", "\"odrust-sample-cached-1 (daemon)\"");
        assertTrue(cached.done.contains("\"not_restored\":[]"), cached.done);
        // A thread that sleeps still counts as left running.
        Served sleeping = serve("SampleLeaks", "leavesAThreadRunning");
        assertThreads(sleeping, "\"odrust-sample-leak (daemon)\"", "");
    }

    @Test
    void aScheduledTaskStillToRunIsAThreadLeftRunning() throws Exception {
        Served s = serve("SampleIdle", "leavesAScheduledTask");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertThreads(s, "\"odrust-sample-timer-1 (daemon)\"", "");
    }

    @Test
    void moreIdleThreadsThanItKeepsRetireTheJvm() throws Exception {
        Served s = serve("SampleIdle", "leavesManyIdleWorkers");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(s.done.contains("\"leaked_threads\":[]"), s.done);
        assertTrue(s.done.contains("70 idle threads that orders left are alive (more than 64)"), s.done);
    }

    @Test
    void aThreadWaitingForACollectedObjectIsAThreadLeftRunning() throws Exception {
        // No thread of the order has to wake it: a garbage collection does.
        Served s = serve("SampleIdle", "leavesAThreadWaitingForACollectedObject");
        assertEquals(Arrays.asList("pass"), s.outcomes());
        assertTrue(s.done.contains("\"leaked_threads\":[\"odrust-sample-cleaner (daemon)\"]"), s.done);
    }

    @Test
    void anIdleWorkerThatRunsAgainRetiresTheJvm() throws Exception {
        Served fixed = serve("SampleIdle", "leavesAFixedPool");
        assertTrue(fixed.done.contains("\"idle_threads\":[\"odrust-sample-fixed-1\"]"), fixed.done);
        // A later order reaches it through what the JVM shares (here: the thread itself).
        Served woken = serve("SampleIdle", "interruptsTheFixedPoolsWorker");
        assertEquals(Arrays.asList("pass"), woken.outcomes());
        assertTrue(
                woken.done.contains("an idle thread an earlier order left ran again (odrust-sample-fixed-1)"),
                woken.done);
    }

    /** The threads {@code s}'s order left, as its {@code .done} names them (JSON array contents). */
    private static void assertThreads(Served s, String leaked, String idle) {
        assertTrue(s.done.contains("\"leaked_threads\":[" + leaked + "]"), s.done);
        assertTrue(s.done.contains("\"idle_threads\":[" + idle + "]"), s.done);
    }
}
