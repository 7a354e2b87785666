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

    void capturesALaterStartAndRestoresSystemProperties() throws Exception {
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
