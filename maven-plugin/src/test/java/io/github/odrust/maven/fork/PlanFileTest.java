package io.github.odrust.maven.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.format.PlanFile;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanFileTest {
    @Test
    void escapesTabsNewlinesAndBackslashesInFields() {
        assertEquals("a\\tb\\nc\\\\d\\r", PlanFile.escape("a\tb\nc\\d\r"));
    }

    @Test
    void writesVersionModeSegmentsAndProperties(@TempDir Path dir) throws Exception {
        Path plan = dir.resolve("p.txt");
        new PlanFile.Writer("run", dir.resolve("e.jsonl"))
                .frameworks(List.of("junit4", "junit5"))
                .systemProperties(Map.of("k", "multi\nline"))
                .segment("junit4", "p.A", List.of("p.A#a", "p.A#b"))
                .write(plan);
        List<String> lines = Files.readAllLines(plan, StandardCharsets.UTF_8);
        assertEquals("odrust-plan\t1", lines.get(0));
        assertEquals("mode\trun", lines.get(1));
        assertTrue(lines.contains("sysprop\tk\tmulti\\nline"), lines.toString());
        assertEquals(
                List.of("segment\tjunit4\tp.A", "test\tp.A#a", "test\tp.A#b"),
                lines.subList(lines.size() - 3, lines.size()));
    }

    @Test
    void manifestJarListsTheClasspathRelativelyWithDirectoriesEndingInSlash(@TempDir Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("my classes"));
        Path lib = Files.createFile(dir.resolve("lib.jar"));
        Path jar = dir.resolve("out/cp.jar");
        ManifestJar.write(jar, List.of(classes.toFile(), lib.toFile()), "io.github.odrust.agent.Main");
        try (JarFile j = new JarFile(jar.toFile())) {
            String cp = j.getManifest().getMainAttributes().getValue("Class-Path");
            assertEquals("../my%20classes/ ../lib.jar", cp);
            assertEquals(
                    "io.github.odrust.agent.Main",
                    j.getManifest().getMainAttributes().getValue("Main-Class"));
        }
        assertTrue(new File(jar.toFile().getParentFile(), "../lib.jar").exists());
    }
}
