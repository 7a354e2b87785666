package io.github.odrust.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's diagnose mode end to end, in a forked JVM with the agent's Instrumentation: capture
 * before the victim (a JDK package opened by the agent), restore from a passing capture (a
 * {@code static final} singleton restored in place), the victim passing.
 */
class CaptureIT {
    static final String S = "io.github.odrust.samples.state.";

    @TempDir
    Path dir;

    @BeforeAll
    static void locate() throws IOException {
        RecordIT.locate();
    }

    /** The JDK of the forked JVMs. */
    String javaHome = System.getProperty("java.home");

    /** The options' {@code point}, when not the default. */
    String point;

    /** Classes (simple names in the samples' package) the options initialize besides StateHolder's. */
    List<String> alsoInitialize = new ArrayList<>();

    /**
     * This JDK and every other JDK 17+ installed beside it (one per major version), so that capture
     * and restore are checked on each (strong encapsulation, jdk.internal.misc.Unsafe).
     */
    static List<String> jdks() throws IOException {
        Map<String, String> byMajor = new LinkedHashMap<>();
        byMajor.put(major(Paths.get(System.getProperty("java.home"))), System.getProperty("java.home"));
        Path parent = Paths.get(System.getProperty("java.home")).toRealPath().getParent();
        try (Stream<Path> s = Files.list(parent)) {
            for (Path jdk : s.sorted().collect(Collectors.toList())) {
                String m = major(jdk);
                if (m != null && Integer.parseInt(m) >= 17 && Files.isExecutable(jdk.resolve("bin/java"))) {
                    byMajor.putIfAbsent(m, jdk.toString());
                }
            }
        }
        return new ArrayList<>(byMajor.values());
    }

    private static String major(Path jdk) {
        try {
            for (String line : Files.readAllLines(jdk.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring(13).replace("\"", "");
                    return v.startsWith("1.") ? "8" : v.split("[.+-]")[0];
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    RecordIT.Run fork(String options, String... tests) throws Exception {
        RecordIT r = new RecordIT();
        r.dir = dir;
        r.javaHome = javaHome;
        String[] plan = new String[tests.length * 2];
        for (int i = 0; i < tests.length; i++) {
            String cls = tests[i].substring(0, tests[i].indexOf('#'));
            plan[2 * i] = "segment\tjunit4\t" + S + cls;
            plan[2 * i + 1] = "test\t" + S + tests[i];
        }
        return r.fork(options, false, plan);
    }

    String options(String victim, int occurrence, Path capture, Path restoreFrom, String... fields) {
        StringBuilder b = new StringBuilder("mode diagnose\nroot " + RecordIT.testClasses.toAbsolutePath() + "\n")
                .append("initialize ")
                .append(S)
                .append("StateHolder\n")
                .append("initialize ")
                .append(S)
                .append("StateHolder$Registry\n")
                .append("test ")
                .append(S)
                .append(victim)
                .append('\n')
                .append("occurrence ")
                .append(occurrence)
                .append('\n')
                .append("result ")
                .append(dir.resolve("result.json"))
                .append('\n');
        if (point != null) {
            b.append("point ").append(point).append('\n');
        }
        for (String c : alsoInitialize) {
            b.append("initialize ").append(S).append(c).append('\n');
        }
        if (capture != null) {
            b.append("capture ").append(capture).append('\n');
        }
        if (restoreFrom != null) {
            b.append("restore-from ").append(restoreFrom).append('\n');
        }
        for (String f : fields) {
            b.append("restore-field ").append(f).append('\n');
        }
        return b.toString();
    }

    static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    @Test
    void capturesAndRestoresOnEveryInstalledJdk() throws Exception {
        List<String> jdks = jdks();
        for (String jdk : jdks) {
            javaHome = jdk;
            capturesBeforeTheVictimAndRestoresItsState();
            capturesALaterStartAndRestoresSystemProperties();
            assertTrue(read(dir.resolve("passing.xml")).contains("java=\"" + major(Paths.get(jdk))), jdk);
        }
    }

    void capturesBeforeTheVictimAndRestoresItsState() throws Exception {
        point = "test"; // so that the victim's class is loaded (not initialized) when captured
        Path passing = dir.resolve("passing.xml");
        RecordIT.Run alone = fork(
                options("StateVictimTest#expectsIdleRegistry", 1, passing, null),
                "StateVictimTest#expectsIdleRegistry");
        alone.allPassed();
        String clean = read(passing);
        // the agent opened java.util.concurrent.atomic: the AtomicReference is walked, not unreadable
        assertTrue(
                clean.contains(
                        "<static field=\"CURRENT\" type=\"java.util.concurrent.atomic.AtomicReference\" final=\"true\">"
                                + "<object class=\"java.util.concurrent.atomic.AtomicReference\"><field name=\"value\"><string>none</string>"),
                clean);
        // classes loaded but not initialized are listed as such, with no state
        assertTrue(clean.contains("<class name=\"" + S + "StateVictimTest\" initialized=\"false\"/>"), clean);

        Path failing = dir.resolve("failing.xml");
        RecordIT.Run polluted = fork(
                options("StateVictimTest#expectsIdleRegistry", 1, failing, null),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsIdleRegistry");
        assertEquals(
                "fail", polluted.test(S + "StateVictimTest#expectsIdleRegistry").get("outcome"));
        String dirty = read(failing);
        assertTrue(
                dirty.contains(
                        "<field name=\"jobs\"><map class=\"java.util.HashMap\" size=\"1\"><entry><string>job-1</string>"
                                + "<prim class=\"java.lang.Integer\">3</prim></entry></map></field>"),
                dirty);

        // restoring the registry and the mode makes the victim pass after the polluter
        RecordIT.Run restored = fork(
                options(
                        "StateVictimTest#expectsIdleRegistry",
                        1,
                        dir.resolve("after.xml"),
                        passing,
                        S + "StateHolder$Registry.INSTANCE",
                        S + "StateHolder.mode"),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsIdleRegistry");
        restored.allPassed();
        String result = read(dir.resolve("result.json"));
        assertTrue(result.contains("\"" + S + "StateHolder$Registry.INSTANCE\":\"restored\""), result);
        assertTrue(result.contains("\"" + S + "StateHolder.mode\":\"restored\""), result);
        String after = read(dir.resolve("after.xml"));
        assertTrue(
                after.contains("<field name=\"jobs\"><map class=\"java.util.HashMap\" size=\"0\"></map></field>"),
                after);

        // restoring only the mode is not enough
        RecordIT.Run partial = fork(
                options(
                        "StateVictimTest#expectsIdleRegistry",
                        1,
                        null,
                        passing,
                        S + "StateHolder.mode",
                        S + "StateHolder.nothing"),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsIdleRegistry");
        assertEquals(
                "fail", partial.test(S + "StateVictimTest#expectsIdleRegistry").get("outcome"));
        String partialResult = read(dir.resolve("result.json"));
        assertTrue(
                partialResult.contains(
                        "\"" + S + "StateHolder.nothing\":\"not restored: the passing capture has no value for "),
                partialResult);
    }

    /** Forks one segment: {@code framework}, the class and its tests in this order. */
    RecordIT.Run forkSegment(String options, String framework, String cls, String... methods) throws Exception {
        return forkSegments(options, new String[] {framework, cls, String.join(",", methods)});
    }

    /** Forks segments, each {framework, class, comma-separated methods}. */
    RecordIT.Run forkSegments(String options, String[]... segments) throws Exception {
        RecordIT r = new RecordIT();
        r.dir = dir;
        r.javaHome = javaHome;
        List<String> plan = new ArrayList<>();
        plan.add("frameworks\tjunit4,junit5");
        for (String[] seg : segments) {
            plan.add("segment\t" + seg[0] + "\t" + S + seg[1]);
            for (String m : seg[2].split(",")) {
                plan.add("test\t" + S + seg[1] + "#" + m);
            }
        }
        return r.fork(options, false, plan.toArray(new String[0]));
    }

    /**
     * Issue 27: a victim that fails while its instance is built (a field initializer, a
     * constructor) or in its {@code @BeforeClass} is restored before that: at the {@code class}
     * point when it is the first test of its segment, else at the {@code instance} point (JUnit 5;
     * JUnit 4.12+ builds the instance after the test-start event); the {@code test} point is too
     * late for JUnit 5.
     */
    @Test
    void restoresBeforeTheInstanceAndBeforeTheClass() throws Exception {
        String victim = "StateConstructorVictimTest#usesCleanRates";
        Path passing = dir.resolve("passing.xml");
        forkSegment(options(victim, 1, passing, null), "junit4", "StateConstructorVictimTest", "usesCleanRates")
                .allPassed();
        assertTrue(read(dir.resolve("result.json")).contains("\"point\":\"class\""));
        // its own class pollutes first: the same segment, so the instance point is the earliest
        RecordIT.Run failing = forkSegment(
                options(victim, 1, dir.resolve("failing.xml"), null),
                "junit4",
                "StateConstructorVictimTest",
                "pollutesRates",
                "usesCleanRates");
        assertEquals("error", failing.test(S + victim).get("outcome"));
        // JUnit 4.12+ builds the instance after the test-start event: the test point is before it
        assertTrue(read(dir.resolve("result.json")).contains("\"point\":\"test\""));
        assertTrue(read(dir.resolve("failing.xml")).contains("<string>usd</string>"));
        RecordIT.Run restored = forkSegment(
                options(victim, 1, null, passing, S + "StateHolder.RATES"),
                "junit4",
                "StateConstructorVictimTest",
                "pollutesRates",
                "usesCleanRates");
        restored.allPassed();
        String result = read(dir.resolve("result.json"));
        assertTrue(result.contains("\"" + S + "StateHolder.RATES\":\"restored\""), result);

        // @BeforeClass reads the polluted mode: restored at the class point, before it runs
        point = null;
        String slow = "StateBeforeClassVictimTest#usesSlowMode";
        Path slowPassing = dir.resolve("slow-passing.xml");
        forkSegment(options(slow, 1, slowPassing, null), "junit4", "StateBeforeClassVictimTest", "usesSlowMode")
                .allPassed();
        String[] polluter = {"junit4", "StatePolluterTest", "pollutes"};
        String[] slowSegment = {"junit4", "StateBeforeClassVictimTest", "usesSlowMode"};
        RecordIT.Run slowFailing = forkSegments(options(slow, 1, null, null), polluter, slowSegment);
        assertEquals("error", slowFailing.test(S + slow).get("outcome"));
        forkSegments(options(slow, 1, null, slowPassing, S + "StateHolder.mode"), polluter, slowSegment)
                .allPassed();
        assertTrue(read(dir.resolve("result.json")).contains("\"point\":\"class\""));

        // JUnit 5 builds the instance before its test-start event too
        String j5 = "StateJ5ConstructorVictimTest#usesPlainLabel";
        Path j5Passing = dir.resolve("j5-passing.xml");
        forkSegment(options(j5, 1, j5Passing, null), "junit5", "StateJ5ConstructorVictimTest", "usesPlainLabel")
                .allPassed();
        RecordIT.Run j5Failing = forkSegment(
                options(j5, 1, null, null), "junit5", "StateJ5ConstructorVictimTest", "changesLabel", "usesPlainLabel");
        assertEquals("fail", j5Failing.test(S + j5).get("outcome"));
        forkSegment(
                        options(j5, 1, null, j5Passing, S + "StateHolder.label"),
                        "junit5",
                        "StateJ5ConstructorVictimTest",
                        "changesLabel",
                        "usesPlainLabel")
                .allPassed();
        assertTrue(read(dir.resolve("result.json")).contains("\"point\":\"instance\""));
        // a test listed twice before it: its second start is of the second entry, so the
        // victim is still the next entry when its constructor runs
        forkSegment(
                        options(j5, 1, null, j5Passing, S + "StateHolder.label"),
                        "junit5",
                        "StateJ5ConstructorVictimTest",
                        "changesLabel",
                        "changesLabel",
                        "usesPlainLabel")
                .allPassed();
        assertTrue(read(dir.resolve("result.json")).contains("\"point\":\"instance\""));
        // at its test-start event the instance failed to build already
        point = "test";
        RecordIT.Run late = forkSegment(
                options(j5, 1, null, j5Passing, S + "StateHolder.label"),
                "junit5",
                "StateJ5ConstructorVictimTest",
                "changesLabel",
                "usesPlainLabel");
        assertEquals("fail", late.test(S + j5).get("outcome"));
        point = null;

        // a Class value of a primitive type (void.class) is restored by its name
        point = "test";
        alsoInitialize.add("StateClassValueTest");
        String voidTest = "StateClassValueTest#expectsVoid";
        Path voidPassing = dir.resolve("void-passing.xml");
        forkSegment(options(voidTest, 1, voidPassing, null), "junit4", "StateClassValueTest", "expectsVoid")
                .allPassed();
        RecordIT.Run voidRestored = forkSegment(
                options(voidTest, 1, null, voidPassing, S + "StateClassValueTest.returnType"),
                "junit4",
                "StateClassValueTest",
                "setsInt",
                "expectsVoid");
        String voidResult = read(dir.resolve("result.json"));
        assertEquals("pass", voidRestored.test(S + voidTest).get("outcome"), voidResult);
        assertTrue(voidResult.contains("\"" + S + "StateClassValueTest.returnType\":\"restored\""), voidResult);
        point = null;
        alsoInitialize.clear();
    }

    void capturesALaterStartAndRestoresSystemProperties() throws Exception {
        point = null;
        Path passing = dir.resolve("passing.xml");
        fork(options("StateVictimTest#expectsNoRates", 1, passing, null), "StateVictimTest#expectsNoRates")
                .allPassed();
        // the victim's second run: the capture is taken before the 2nd start
        Path second = dir.resolve("second.xml");
        fork(
                options("StateVictimTest#expectsNoRates", 2, second, null),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsNoRates",
                "StateVictimTest#expectsNoRates");
        assertTrue(read(second).contains("occurrence=\"2\""));
        assertTrue(read(second).contains("<string>eur</string>"));
        RecordIT.Run restored = fork(
                options(
                        "StateVictimTest#expectsNoRates",
                        1,
                        null,
                        passing,
                        S + "StateHolder.RATES",
                        "java.lang.System.properties"),
                "StatePolluterTest#pollutes",
                "StateVictimTest#expectsNoRates");
        restored.allPassed();
        String result = read(dir.resolve("result.json"));
        assertTrue(result.contains("\"java.lang.System.properties\":\"restored\""), result);
    }
}
