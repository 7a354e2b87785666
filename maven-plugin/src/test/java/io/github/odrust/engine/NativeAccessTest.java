package io.github.odrust.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * JDK 24+ warns when a class in the unnamed module calls System.load (JEP 472). The plugin says
 * how to enable native access before the warning, and with it enabled there is no warning. Checked
 * on the JDK 25 installed beside the build's JDK ({@code ODRUST_JDK25} or /usr/lib/jvm/*25*).
 */
class NativeAccessTest {
    @Test
    void adviceOnlyWhereTheJdkWarns() {
        assertNull(EngineLoader.nativeAccessAdvice(17, null));
        assertNull(EngineLoader.nativeAccessAdvice(21, false));
        assertNull(EngineLoader.nativeAccessAdvice(25, true));
        String advice = EngineLoader.nativeAccessAdvice(25, false);
        assertNotNull(advice);
        assertTrue(advice.contains("--enable-native-access=ALL-UNNAMED") && advice.contains(".mvn/jvm.config"), advice);
    }

    @Test
    void onJdk25TheFlagRemovesTheWarningAndTheAdvice() throws Exception {
        Path java = jdk25().resolve("bin/java");
        String without = probe(java, false);
        assertTrue(
                without.contains(
                        "WARNING: java.lang.System::load has been called by io.github.odrust.engine.EngineLoader"),
                without);
        assertTrue(without.contains("odrust: JDK 25 prints a warning below"), without);
        assertTrue(without.contains("engine 0.1.0"), without);
        String with = probe(java, true);
        assertFalse(with.contains("WARNING"), with);
        assertTrue(with.contains("no advice"), with);
        assertTrue(with.contains("engine 0.1.0"), with);
    }

    private static String probe(Path java, boolean enable) throws Exception {
        String cp = System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(java.toString()));
        if (enable) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(List.of("-cp", cp, NativeAccessProbe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    private static Path jdk25() throws Exception {
        String env = System.getenv("ODRUST_JDK25");
        if (env != null) {
            return Path.of(env);
        }
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            return jvms.filter(
                            p -> p.getFileName().toString().contains("25") && Files.isExecutable(p.resolve("bin/java")))
                    .findFirst()
                    .orElseThrow(
                            () -> new AssertionError("no JDK 25 in /usr/lib/jvm: install one (the build machine has"
                                    + " Temurin 25) or set ODRUST_JDK25 to its home"));
        }
    }
}
