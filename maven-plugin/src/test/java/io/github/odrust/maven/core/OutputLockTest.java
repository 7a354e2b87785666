package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondRunIsRefusedNamingTheFirstAndMayGoOnOnceItEnded() throws Exception {
        List<String> lines = new ArrayList<>();
        try (OutputLock first = OutputLock.take(dir, "odrust:detect", lines::add)) {
            String holder = Files.readString(first.file());
            assertTrue(
                    holder.startsWith(
                            "odrust:detect, PID " + ProcessHandle.current().pid() + ", started "),
                    holder);
            OutputLock.HeldException e = assertThrows(
                    OutputLock.HeldException.class, () -> OutputLock.take(dir, "odrust:repair", lines::add));
            assertTrue(e.getMessage().contains("another odrust run is writing to " + dir), e.getMessage());
            assertTrue(
                    e.getMessage()
                            .contains("odrust:detect, PID "
                                    + ProcessHandle.current().pid()),
                    e.getMessage());
            assertTrue(e.getMessage().contains("-Dodrust.outputDirectory="), e.getMessage());
        }
        // ended: the file is emptied, and the next run takes it without a word
        assertEquals("", Files.readString(dir.resolve(OutputLock.FILE)));
        try (OutputLock again = OutputLock.take(dir, "odrust:repair", lines::add)) {
            assertTrue(Files.readString(again.file()).startsWith("odrust:repair, PID "));
        }
        assertEquals(List.of(), lines);
    }

    @Test
    void twoRunsInOneModuleAreRefusedWhateverTheirOutputDirectories() throws Exception {
        Path target = dir.resolve("target");
        List<String> lines = new ArrayList<>();
        try (OutputLock tests = OutputLock.takeTests(target, "odrust:detect", lines::add);
                OutputLock out = OutputLock.take(target.resolve("odrust-a"), "odrust:detect", lines::add)) {
            // the second run's own output directory is free ...
            try (OutputLock other = OutputLock.take(target.resolve("odrust-b"), "odrust:detect", lines::add)) {
                assertTrue(Files.readString(other.file()).startsWith("odrust:detect, PID "));
            }
            // ... but the module's tests are not
            OutputLock.HeldException e = assertThrows(
                    OutputLock.HeldException.class, () -> OutputLock.takeTests(target, "odrust:repair", lines::add));
            assertTrue(e.getMessage().contains("running this module's tests"), e.getMessage());
            assertTrue(
                    e.getMessage()
                            .contains("odrust:detect, PID "
                                    + ProcessHandle.current().pid()),
                    e.getMessage());
            assertTrue(
                    e.getMessage()
                            .contains(target.resolve(OutputLock.TESTS_FILE).toString()),
                    e.getMessage());
            assertTrue(!e.getMessage().contains("-Dodrust.outputDirectory"), e.getMessage());
        }
        try (OutputLock again = OutputLock.takeTests(target, "odrust:repair", lines::add)) {
            assertTrue(Files.readString(again.file()).startsWith("odrust:repair, PID "));
        }
        assertEquals(List.of(), lines);
    }

    @Test
    void aLockLeftByARunThatDiedIsTakenOverWithALine() throws Exception {
        Files.writeString(dir.resolve(OutputLock.FILE), "odrust:detect, PID 999999, started 2026-01-01T00:00:00Z");
        List<String> lines = new ArrayList<>();
        try (OutputLock taken = OutputLock.take(dir, "odrust:detect", lines::add)) {
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).contains("taking over"), lines.get(0));
            assertTrue(lines.get(0).contains("PID 999999"), lines.get(0));
        }
    }

    @Test
    void aRunInAnotherProcessHoldsItUntilThatProcessEnds() throws Exception {
        // A second JVM takes the lock, says so, and waits for its standard input to close.
        Path src = dir.resolve("Hold.java");
        Files.writeString(
                src,
                String.join(
                        "\n",
                        "import java.nio.channels.*; import java.nio.file.*; import java.nio.*;",
                        "public class Hold { public static void main(String[] a) throws Exception {",
                        "  FileChannel c = FileChannel.open(Path.of(a[0]), StandardOpenOption.CREATE,"
                                + " StandardOpenOption.WRITE, StandardOpenOption.READ);",
                        "  FileLock l = c.lock(); c.write(ByteBuffer.wrap(\"odrust:detect, PID 4242, started then\".getBytes()), 0);",
                        "  System.out.println(\"locked\"); System.out.flush();",
                        "  System.in.read(); } }"));
        Path lockDir = dir.resolve("out");
        Files.createDirectories(lockDir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java, src.toString(), lockDir.resolve(OutputLock.FILE).toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());
            OutputLock.HeldException e = assertThrows(
                    OutputLock.HeldException.class, () -> OutputLock.take(lockDir, "odrust:detect", l -> {}));
            assertTrue(e.getMessage().contains("PID 4242"), e.getMessage());
        } finally {
            p.getOutputStream().close();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
        // its process ended without emptying the file: the lock is taken over, with a line
        List<String> lines = new ArrayList<>();
        try (OutputLock taken = OutputLock.take(lockDir, "odrust:detect", lines::add)) {
            assertEquals(1, lines.size());
            assertTrue(lines.get(0).contains("PID 4242"), lines.get(0));
        }
    }
}
