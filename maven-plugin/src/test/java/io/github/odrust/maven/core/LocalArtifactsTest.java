package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalArtifactsTest {
    @TempDir
    Path repo;

    private void jar(String version) throws IOException {
        Path dir = repo.resolve("org/junit/platform/junit-platform-launcher").resolve(version);
        Files.createDirectories(dir);
        Files.write(dir.resolve("junit-platform-launcher-" + version + ".jar"), new byte[] {1});
    }

    private String sameMinor(String wanted) {
        return LocalArtifacts.sameMinor(repo.toFile(), "org.junit.platform", "junit-platform-launcher", wanted);
    }

    @Test
    void theHighestVersionOfTheSameMinorWithItsJar() throws IOException {
        jar("1.9.0");
        jar("1.9.2");
        jar("1.9.10");
        jar("1.10.1");
        jar("1.9.11-M1");
        // a version directory without its jar (only a pom was fetched) does not count
        Files.createDirectories(repo.resolve("org/junit/platform/junit-platform-launcher/1.9.12"));
        assertEquals("1.9.11-M1", sameMinor("1.9.3"), "1.9.11-M1 is above 1.9.10");
        assertEquals("1.10.1", sameMinor("1.10.0"));
        assertNull(sameMinor("1.8.2"), "another minor version is not taken");
        assertNull(sameMinor("5"), "a version without a minor part matches nothing");
        assertNull(LocalArtifacts.sameMinor(new File(repo.toFile(), "missing"), "a", "b", "1.0.0"));
        assertNull(LocalArtifacts.sameMinor(null, "a", "b", "1.0.0"));
    }

    @Test
    void versionsCompareByNumberAndAReleaseComesAfterItsMilestones() {
        assertTrue(LocalArtifacts.compare("1.9.10", "1.9.9") > 0);
        assertTrue(LocalArtifacts.compare("1.9.0", "1.9.0-RC1") > 0);
        assertEquals(0, LocalArtifacts.compare("1.9", "1.9.0"));
        assertEquals("1.9", LocalArtifacts.minor("1.9.3"));
    }
}
