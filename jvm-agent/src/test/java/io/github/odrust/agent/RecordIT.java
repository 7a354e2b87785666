package io.github.odrust.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.runner.Harness;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Static-field recording end to end: sample tests run in a forked JVM started as the Maven plugin
 * starts it (a manifest-only classpath jar, the agent jar last) plus
 * {@code -javaagent:<the shaded agent jar>=<options-file>}. Runs after {@code package} (failsafe).
 */
class RecordIT {
    static final String R = "io.github.odrust.samples.record.";
    static final String LIB = "io.github.odrust.samples.reclib.";
    static final String[] J4 = {
        "increments",
        "registers",
        "readsConstants",
        "readsLabel",
        "initialises",
        "setsProperty",
        "readsGlobals",
        "threaded",
        "inherited",
        "switchesOnEnum",
        "usesLibrary",
        "usesExcluded",
        "sameRecorder"
    };

    static Path agentJar;
    static Path testClasses;

    @TempDir
    Path dir;

    /** The JDK the forked JVM runs on (CaptureIT runs on every JDK installed beside this one). */
    String javaHome = System.getProperty("java.home");

    @BeforeAll
    static void locate() throws IOException {
        agentJar = Paths.get(System.getProperty("odrust.agent.jar", "target/odrust-jvm-agent.jar"));
        testClasses = Paths.get(System.getProperty("odrust.test.classes", "target/test-classes"));
        assertTrue(Files.isRegularFile(agentJar), "agent jar " + agentJar);
        try (JarFile j = new JarFile(agentJar.toFile())) {
            Attributes a = j.getManifest().getMainAttributes();
            assertEquals("io.github.odrust.agent.record.RecordAgent", a.getValue("Premain-Class"));
            assertEquals("io.github.odrust.agent.Main", a.getValue("Main-Class"));
            assertTrue(j.getEntry("io/github/odrust/agent/shaded/asm/ClassReader.class") != null, "ASM is shaded");
            assertTrue(j.getEntry("org/objectweb/asm/ClassReader.class") == null, "ASM is relocated");
        }
    }

    /** One forked run: its events, stderr and exit status. */
    static final class Run {
        List<Map<String, Object>> events;
        String stderr;
        int status;
        long millis;

        List<Map<String, Object>> all(String kind) {
            return events.stream().filter(e -> kind.equals(e.get("event"))).collect(Collectors.toList());
        }

        Map<String, Object> test(String id) {
            List<Map<String, Object>> l =
                    all("test").stream().filter(e -> id.equals(e.get("test"))).collect(Collectors.toList());
            assertEquals(1, l.size(), "test events for " + id + " in " + events);
            return l.get(0);
        }

        List<String> reads(String id) {
            return strings(test(id).get("reads"));
        }

        List<String> writes(String id) {
            return strings(test(id).get("writes"));
        }

        void allPassed() {
            assertEquals(0, status, "status; stderr:\n" + stderr + "\nevents: " + events);
            for (Map<String, Object> t : all("test")) {
                assertEquals("pass", t.get("outcome"), t.toString());
            }
            assertEquals("end", events.get(events.size() - 1).get("event"));
        }
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Object o) {
        return o == null ? null : (List<String>) o;
    }

    static List<String> list(String... s) {
        return Arrays.asList(s);
    }

    /** The test classpath without this module's own classes (the agent jar brings them) and without ASM. */
    static List<Path> junitClasspath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Path> out = new ArrayList<>();
        for (String e : cp.split(File.pathSeparator)) {
            if (e.isEmpty()) {
                continue;
            }
            Path p = Paths.get(e).toAbsolutePath().normalize();
            String name = p.getFileName().toString();
            if (p.equals(testClasses.toAbsolutePath().normalize())
                    || name.equals("classes")
                    || name.startsWith("odrust-jvm-agent")
                    || name.startsWith("asm-")) {
                continue;
            }
            out.add(p);
        }
        return out;
    }

    Run fork(String options, boolean withLibDir, String... plan) throws Exception {
        List<Path> cp = new ArrayList<>();
        if (withLibDir) {
            // RecLib from a directory that is not a root: instrumented only when `include`d
            Path lib = dir.resolve("lib");
            Path rel = Paths.get("io/github/odrust/samples/reclib/RecLib.class");
            Files.createDirectories(lib.resolve(rel).getParent());
            Files.copy(testClasses.resolve(rel), lib.resolve(rel), StandardCopyOption.REPLACE_EXISTING);
            cp.add(lib);
        }
        cp.add(testClasses);
        cp.addAll(junitClasspath());
        cp.add(agentJar);
        Path cpJar = dir.resolve("classpath.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes()
                .put(
                        Attributes.Name.CLASS_PATH,
                        cp.stream()
                                .map(p -> p.toAbsolutePath().toUri().toString())
                                .collect(Collectors.joining(" ")));
        try (OutputStream out = Files.newOutputStream(cpJar);
                JarOutputStream j = new JarOutputStream(out, m)) {
            j.flush();
        }
        Path events = dir.resolve("events.jsonl");
        Files.deleteIfExists(events);
        StringBuilder p = new StringBuilder("odrust-plan\t1\nmode\trun\nevents\t" + events + "\n");
        for (String line : plan) {
            p.append(line).append('\n');
        }
        Path planFile = dir.resolve("plan.tsv");
        Files.write(planFile, p.toString().getBytes(StandardCharsets.UTF_8));
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(javaHome, "bin", "java").toString());
        if (options != null) {
            Path opts = dir.resolve("record.options");
            Files.write(opts, options.getBytes(StandardCharsets.UTF_8));
            cmd.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + opts);
        }
        cmd.addAll(list("-cp", cpJar.toString(), "io.github.odrust.agent.Main", planFile.toString()));
        Path err = dir.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("stdout.txt").toFile());
        pb.environment().put("ODRUST_IT_RECORDING", String.valueOf(options != null && !options.contains("broken")));
        long t0 = System.nanoTime();
        Process proc = pb.start();
        assertTrue(proc.waitFor(120, TimeUnit.SECONDS), "forked JVM timed out");
        Run r = new Run();
        r.millis = (System.nanoTime() - t0) / 1_000_000L;
        r.status = proc.exitValue();
        r.stderr = new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
        r.events = Harness.read(events);
        return r;
    }

    static String[] samplePlan() {
        List<String> l = new ArrayList<>();
        l.add("segment\tjunit4\t" + R + "RecSampleJ4");
        for (String t : J4) {
            l.add("test\t" + R + "RecSampleJ4#" + t);
        }
        l.add("segment\tjunit4\t" + R + "RecSampleParam");
        l.add("test\t" + R + "RecSampleParam#t[1]");
        l.add("test\t" + R + "RecSampleParam#t[0]");
        l.add("segment\tjunit5\t" + R + "RecSampleJ5");
        l.add("test\t" + R + "RecSampleJ5#increments");
        l.add("test\t" + R + "RecSampleJ5#readsConstants");
        return l.toArray(new String[0]);
    }

    String options(boolean includeLib) {
        return "# RecordIT\n"
                + "root " + testClasses.toAbsolutePath() + "\n"
                + (includeLib ? "include " + LIB + "\n" : "")
                + "exclude " + R + "RecExcluded\n";
    }

    private static String j4(String m) {
        return R + "RecSampleJ4#" + m;
    }

    @Test
    void recordsStaticFieldReadsAndWritesPerTest() throws Exception {
        Run r = fork(options(true), true, samplePlan());
        r.allPassed();
        assertEquals("", r.stderr.trim(), "stderr");
        String h = R + "RecHolder#";
        // COUNT++: a read and a write
        assertEquals(list(h + "COUNT"), r.reads(j4("increments")));
        assertEquals(list(h + "COUNT"), r.writes(j4("increments")));
        // REGISTRY.put on a static final Map: its read counts as a write too
        assertEquals(list(h + "REGISTRY"), r.reads(j4("registers")));
        assertEquals(list(h + "REGISTRY"), r.writes(j4("registers")));
        // final int/String/enum-typed fields and enum constants: nothing
        assertEquals(list(), r.reads(j4("readsConstants")));
        assertEquals(list(), r.writes(j4("readsConstants")));
        // a non-final String: a read only
        assertEquals(list(h + "label"), r.reads(j4("readsLabel")));
        assertEquals(list(), r.writes(j4("readsLabel")));
        // the PUTSTATIC in RecInit's <clinit> is no write
        assertEquals(list(R + "RecInit#VALUE"), r.reads(j4("initialises")));
        assertEquals(list(), r.writes(j4("initialises")));
        // JDK global state through API calls
        assertEquals(list(), r.reads(j4("setsProperty")));
        assertEquals(list("java.lang.System#properties"), r.writes(j4("setsProperty")));
        assertEquals(list("java.lang.System#properties", "java.util.Locale#default"), r.reads(j4("readsGlobals")));
        assertEquals(list(), r.writes(j4("readsGlobals")));
        // a thread the test started counts for the test
        assertEquals(list(h + "fromThread"), r.writes(j4("threaded")));
        // owner RecSub in the bytecode, declared in RecBase
        assertEquals(list(R + "RecBase#shared"), r.writes(j4("inherited")));
        assertEquals(list(R + "RecBase#shared"), r.reads(j4("inherited")));
        // the enum switch map ($SwitchMap$) and enum constants are not state
        assertEquals(list(), r.reads(j4("switchesOnEnum")));
        assertEquals(list(), r.writes(j4("switchesOnEnum")));
        // `include` instruments a class outside the roots; `exclude` leaves one out
        assertEquals(list(LIB + "RecLib#hits"), r.writes(j4("usesLibrary")));
        assertEquals(list(), r.writes(j4("usesExcluded")));
        assertEquals(list(), r.reads(j4("usesExcluded")));
        // JUnit 5
        assertEquals(list(h + "COUNT"), r.writes(R + "RecSampleJ5#increments"));
        assertEquals(list(), r.reads(R + "RecSampleJ5#readsConstants"));
        // every test event has both lists
        for (Map<String, Object> t : r.all("test")) {
            assertTrue(t.containsKey("reads") && t.containsKey("writes"), t.toString());
        }
    }

    @Test
    void classLevelSetupGoesToClassState() throws Exception {
        Run r = fork(options(false), true, samplePlan());
        r.allPassed();
        List<Map<String, Object>> cs = r.all("class-state");
        String h = R + "RecHolder#";
        assertEquals(
                list(R + "RecSampleJ4", R + "RecSampleParam", R + "RecSampleJ5"),
                cs.stream().map(e -> e.get("class")).collect(Collectors.toList()),
                cs.toString());
        assertEquals(list(h + "setUp"), strings(cs.get(0).get("reads")));
        assertEquals(list(h + "label", h + "setUp"), strings(cs.get(0).get("writes")));
        // a JUnit 4 parameter factory runs while the runner is built, before the segment event
        assertEquals(list(h + "paramFactory"), strings(cs.get(1).get("writes")));
        assertEquals(list(h + "j5SetUp"), strings(cs.get(2).get("writes")));
        assertEquals(list(), r.writes(R + "RecSampleParam#t[0]"));
        // each class-state closes its segment: after the segment's last test, before the next segment
        List<String> kinds = r.events.stream().map(e -> (String) e.get("event")).collect(Collectors.toList());
        int firstCs = kinds.indexOf("class-state");
        assertEquals("test", kinds.get(firstCs - 1));
        assertEquals("segment", kinds.get(firstCs + 1));
        assertEquals("class-state", kinds.get(kinds.size() - 2));
        // without `include`, the library class in a non-root directory is not instrumented
        assertEquals(list(), r.writes(j4("usesLibrary")));
    }

    @Test
    void mutableReadsAreWritesOnlyWhenTheStateBehindThemChanged() throws Exception {
        String f = R + "RecSampleFingerprint";
        String[] tests = {
            "readsTable",
            "putsIntoTable",
            "putsAndRemoves",
            "readsLambda",
            "incrementsAtomic",
            "readsArray",
            "changesArrayElement",
            "readsHugeList",
            "readsCycle",
            "changesCycle",
            "threadsReadAtOnce",
            "threadsReadAndOneWrites",
            "writesTheSameValue",
            "setsAndRestores",
            "setsLevel",
            "resetsLevel",
            "replacesWithAnotherValue",
            "resetsThenReads",
            "readsThenResets"
        };
        List<String> plan = new ArrayList<>();
        plan.add("segment\tjunit4\t" + f);
        for (String t : tests) {
            plan.add("test\t" + f + "#" + t);
        }
        Run r = fork(options(false), false, plan.toArray(new String[0]));
        r.allPassed();
        assertEquals("", r.stderr.trim(), "stderr");
        String l = R + "RecLookup#";
        // a read-only lookup table: a read, no write
        assertEquals(list(l + "TABLE"), r.reads(f + "#readsTable"));
        assertEquals(list(), r.writes(f + "#readsTable"));
        // put: the state behind the field changed
        assertEquals(list(l + "TABLE"), r.writes(f + "#putsIntoTable"));
        // put, then remove: changed and restored, no write
        assertEquals(list(l + "TABLE"), r.reads(f + "#putsAndRemoves"));
        assertEquals(list(), r.writes(f + "#putsAndRemoves"));
        // a stateless lambda
        assertEquals(list(l + "DECODER"), r.reads(f + "#readsLambda"));
        assertEquals(list(), r.writes(f + "#readsLambda"));
        assertEquals(list(l + "COUNTER"), r.writes(f + "#incrementsAtomic"));
        assertEquals(list(), r.writes(f + "#readsArray"));
        assertEquals(list(l + "CELLS"), r.writes(f + "#changesArrayElement"));
        // over the fingerprint budget: unknown, a write
        assertEquals(list(l + "HUGE"), r.writes(f + "#readsHugeList"));
        // a cycle terminates
        assertEquals(list(l + "SELF"), r.reads(f + "#readsCycle"));
        assertEquals(list(), r.writes(f + "#readsCycle"));
        assertEquals(list(l + "SELF"), r.writes(f + "#changesCycle"));
        // first reads from several threads at once
        assertEquals(list(l + "SHARED"), r.reads(f + "#threadsReadAtOnce"));
        assertEquals(list(), r.writes(f + "#threadsReadAtOnce"));
        assertEquals(list(l + "SHARED"), r.writes(f + "#threadsReadAndOneWrites"));
        // a write that leaves the field as the test found it is no write: the same value, an equal
        // object, or a value set and restored; a write that changes it is one, and so is the reset
        assertEquals(list(), r.writes(f + "#writesTheSameValue"));
        assertEquals(list(), r.writes(f + "#setsAndRestores"));
        assertEquals(list(l + "level"), r.writes(f + "#setsLevel"));
        assertEquals(list(l + "level"), r.writes(f + "#resetsLevel"));
        assertEquals(list(l + "current"), r.writes(f + "#replacesWithAnotherValue"));
        // a read after the test's own write reads what it wrote, not what an earlier test left
        assertEquals(list(), r.reads(f + "#resetsThenReads"));
        assertEquals(list(), r.writes(f + "#resetsThenReads"));
        assertEquals(list(l + "level"), r.reads(f + "#readsThenResets"));
        // setsLevel wrote level and never read it
        assertEquals(list(), r.reads(f + "#setsLevel"));
        // @BeforeClass read the table, putsIntoTable changed it: the test's change, not the class's
        List<Map<String, Object>> cs = r.all("class-state");
        assertEquals(1, cs.size(), cs.toString());
        assertEquals(list(l + "TABLE"), strings(cs.get(0).get("reads")));
        assertEquals(list(), strings(cs.get(0).get("writes")));
    }

    @Test
    void withoutTheAgentEventsAreUnchanged() throws Exception {
        Run r = fork(null, false, samplePlan());
        r.allPassed();
        assertEquals(Collections.emptyList(), r.all("class-state"));
        for (Map<String, Object> t : r.all("test")) {
            assertFalse(t.containsKey("reads") || t.containsKey("writes"), t.toString());
            assertEquals(
                    list("event", "test", "outcome", "time_ms", "message", "exception", "trace"),
                    new ArrayList<>(t.keySet()));
        }
    }

    @Test
    void badOptionsFileIsReportedAndRecordsNothing() throws Exception {
        Run r = fork("# broken\nroot target/test-classes\n", false, samplePlan());
        r.allPassed();
        String[] lines = r.stderr.trim().split("\n");
        assertEquals(1, lines.length, r.stderr);
        assertTrue(lines[0].startsWith("odrust-agent: options file "), r.stderr);
        assertTrue(lines[0].contains("line 2"), r.stderr);
        assertTrue(lines[0].contains("absolute path"), r.stderr);
        assertEquals(Collections.emptyList(), r.all("class-state"));
        for (Map<String, Object> t : r.all("test")) {
            assertFalse(t.containsKey("reads"), t.toString());
        }

        Run unknown = fork("# broken\nroots /x\n", false, samplePlan());
        unknown.allPassed();
        assertTrue(unknown.stderr.contains("unknown setting 'roots'"), unknown.stderr);
    }
}
