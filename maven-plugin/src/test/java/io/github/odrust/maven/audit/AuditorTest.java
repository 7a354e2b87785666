package io.github.odrust.maven.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What makes an audit record another run's: nothing it was a fact about may change unseen. */
class AuditorTest {
    @TempDir
    Path dir;

    @Test
    void theFingerprintTakesTheBuildTheEngineTheSettingsAndTheOwnJarsContent() throws Exception {
        Path jar = dir.resolve("own.jar");
        Files.write(jar, "one".getBytes(StandardCharsets.UTF_8));
        List<File> jars = List.of(jar.toFile());
        Auditor.Settings s = new Auditor.Settings();
        String base = Auditor.fingerprint("classes", s, "build", "0.1.0", jars);
        assertEquals(base, Auditor.fingerprint("classes", s, "build", "0.1.0", jars));
        assertNotEquals(base, Auditor.fingerprint("other classes", s, "build", "0.1.0", jars));
        assertNotEquals(base, Auditor.fingerprint("classes", s, "other build", "0.1.0", jars));
        assertNotEquals(base, Auditor.fingerprint("classes", s, "build", "0.2.0", jars));
        // a jar of the same size with other content
        Files.write(jar, "two".getBytes(StandardCharsets.UTF_8));
        assertNotEquals(base, Auditor.fingerprint("classes", s, "build", "0.1.0", jars));
        Files.write(jar, "one".getBytes(StandardCharsets.UTF_8));
        s.include.add("com.acme.lib.");
        assertNotEquals(base, Auditor.fingerprint("classes", s, "build", "0.1.0", jars));
    }
}
