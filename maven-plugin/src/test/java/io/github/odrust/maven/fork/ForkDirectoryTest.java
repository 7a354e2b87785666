package io.github.odrust.maven.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForkDirectoryTest {
    @TempDir
    Path tmp;

    private Path module() throws Exception {
        Path m = Files.createDirectories(tmp.resolve("module"));
        Files.createDirectories(m.resolve("src/test/resources"));
        Files.write(m.resolve("src/test/resources/data.txt"), "data".getBytes(StandardCharsets.UTF_8));
        Files.write(m.resolve("pom.xml"), "<project/>".getBytes(StandardCharsets.UTF_8));
        Files.createDirectories(m.resolve("target/test-classes"));
        Files.createDirectories(m.resolve("target/odrust/detect"));
        return m;
    }

    @Test
    void aForkSeesTheModulesFilesButKeepsTheFilesItCreates() throws Exception {
        Path m = module();
        ForkDirectory d = ForkDirectory.create(tmp.resolve("forks/exp-3"), m.toFile(), m.resolve("target/odrust"));
        Path work = d.work.toPath();
        assertEquals(
                "data",
                new String(Files.readAllBytes(work.resolve("src/test/resources/data.txt")), StandardCharsets.UTF_8));
        assertTrue(Files.isDirectory(work.resolve("target/test-classes")));
        assertTrue(Files.isDirectory(work.resolve("target")) && !Files.isSymbolicLink(work.resolve("target")));
        assertFalse(Files.exists(work.resolve("target/odrust")), "odrust's own output is not linked");
        assertTrue(d.tmp.isDirectory());

        // what a test creates at the top of its directory or of target/ is its own
        Files.write(work.resolve("out.txt"), "x".getBytes(StandardCharsets.UTF_8));
        Files.createDirectories(work.resolve("target/test-output"));
        assertFalse(Files.exists(m.resolve("out.txt")));
        assertFalse(Files.exists(m.resolve("target/test-output")));

        // deleting it removes the links, never what they point to
        d.delete();
        assertFalse(Files.exists(tmp.resolve("forks/exp-3")));
        assertTrue(Files.exists(m.resolve("src/test/resources/data.txt")));
        assertTrue(Files.isDirectory(m.resolve("target/test-classes")));
        assertTrue(Files.exists(m.resolve("pom.xml")));
    }

    @Test
    void whatAKilledRunLeftIsReplaced() throws Exception {
        Path m = module();
        Path root = tmp.resolve("forks/exp-1");
        Files.createDirectories(root.resolve("work"));
        Files.write(root.resolve("work/stale.txt"), "old".getBytes(StandardCharsets.UTF_8));
        ForkDirectory d = ForkDirectory.create(root, m.toFile(), m.resolve("target/odrust"));
        assertFalse(Files.exists(d.work.toPath().resolve("stale.txt")));
        assertTrue(Files.exists(d.work.toPath().resolve("pom.xml")));
    }

    @Test
    void theForksSpecStartsThereWithItsOwnTmpdirBeforeTheArgLine() {
        TestJvm.Spec spec = new TestJvm.Spec();
        spec.java = "java";
        spec.jvmArgs.add("-Xmx64m");
        spec.workingDirectory = new File("/module");
        TestJvm.Spec forked = spec.isolated(new File("/forks/exp-2/work"), new File("/forks/exp-2/tmp"));
        assertEquals(new File("/forks/exp-2/work"), forked.workingDirectory);
        assertEquals(
                List.of("-Djava.io.tmpdir=" + new File("/forks/exp-2/tmp").getAbsolutePath(), "-Xmx64m"),
                forked.jvmArgs);
        assertEquals(List.of("-Xmx64m"), spec.jvmArgs, "the module's spec is unchanged");
    }
}
