package com.example.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(ConfigParameterResolver.class)
class SettingsTest {
    @Test
    void argLine() {
        assertEquals("yes", System.getProperty("from.argline"), "argLine");
    }

    @Test
    void lateReplacedArgLine() {
        assertEquals("late-value", System.getProperty("from.late"), "@{extraArg} in argLine");
    }

    @Test
    void systemPropertyVariables() {
        assertEquals("sp-surefire-settings", System.getProperty("from.sysprops"), "systemPropertyVariables");
    }

    @Test
    void environmentVariables() {
        assertEquals("env-value", System.getenv("FROM_ENV"), "environmentVariables");
    }

    @Test
    void workingDirectory() throws IOException {
        assertEquals("workdir", new File(System.getProperty("user.dir")).getName(), "user.dir");
        assertEquals("workdir-marker", Files.readString(Path.of("marker.txt"), StandardCharsets.UTF_8).trim(),
                "marker.txt read by relative path");
    }

    @Test
    void additionalClasspathElements() {
        assertNotNull(getClass().getClassLoader().getResource("extra-resource.txt"),
                "extra-resource.txt from additionalClasspathElements");
    }

    @Test
    void classpathDependencyExcludes() {
        assertThrows(ClassNotFoundException.class,
                () -> Class.forName("org.apache.commons.lang3.StringUtils"),
                "commons-lang3 is excluded by classpathDependencyExcludes");
    }

    @Test
    void enableAssertionsFalse() {
        boolean enabled = false;
        assert enabled = true;
        assertTrue(!enabled, "assertions must be disabled (enableAssertions=false)");
    }

    @Test
    void jvm() {
        assertEquals("wrapped", System.getenv("FROM_JVM_WRAPPER"), "started through <jvm> wrapper-jdk/bin/java");
    }

    @Test
    void configurationParameters(String param) {
        assertEquals("from-config", param, "JUnit Platform configurationParameters");
    }

    @Test
    void basedir() {
        String basedir = System.getProperty("basedir");
        assertNotNull(basedir, "basedir system property");
        assertTrue(new File(basedir, "pom.xml").isFile(), "basedir points at the module: " + basedir);
    }

    @Test
    void userPropertiesWinOverSystemPropertyVariables() {
        assertEquals("user", System.getProperty("from.override"), "-Dfrom.override=user beats <systemPropertyVariables>");
    }

    @Test
    void systemProperties() {
        assertEquals("legacy-value", System.getProperty("from.legacy"), "<systemProperties>");
    }

    @Test
    void systemPropertiesFile() {
        assertEquals("file-value", System.getProperty("from.file"), "<systemPropertiesFile>");
    }

    @Test
    void excludedEnvironmentVariables() {
        assertEquals(null, System.getenv("ODRUST_IT_INHERITED"), "removed by <excludedEnvironmentVariables>");
    }

    @Test
    void classpathDependencyScopeExclude() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.apache.commons.io.IOUtils"),
                "runtime-scoped commons-io is excluded by classpathDependencyScopeExclude=runtime");
    }

    @Test
    @Tag("odrust-it-excluded")
    void excludedGroups() {
        org.junit.jupiter.api.Assertions.fail("excludedGroups leaves this test out: it must not run");
    }
}
