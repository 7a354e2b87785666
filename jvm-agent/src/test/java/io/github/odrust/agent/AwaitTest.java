package io.github.odrust.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.runner.Harness;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh JVM started ahead ({@code Main --await}): it loads the test framework's classes without
 * initializing them and nothing of the module before its plan's path comes on its input; its
 * clock counts from then; without a plan it ends quietly.
 */
class AwaitTest {
    private static final String P = "io.github.odrust.agent.samples.";

    @TempDir
    Path dir;

    /** A manifest jar as the plugin writes it: the class path as entries relative to the jar. */
    private Path classpathJar() throws Exception {
        Path jar = dir.resolve("cp").resolve("classpath.jar");
        Files.createDirectories(jar.getParent());
        StringBuilder path = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            File f = new File(entry).getAbsoluteFile();
            String rel = jar.getParent()
                    .toAbsolutePath()
                    .relativize(f.toPath())
                    .toString()
                    .replace(File.separatorChar, '/');
            path.append(rel).append(f.isDirectory() ? "/" : "").append(' ');
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, path.toString().trim());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            // the manifest only
        }
        return jar;
    }

    private Process start(Path classLog) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xlog:class+load:file=" + classLog + ":uptime",
                "-cp",
                classpathJar().toString(),
                Main.class.getName(),
                "--await");
        pb.redirectErrorStream(true);
        pb.redirectOutput(dir.resolve("jvm.log").toFile());
        return pb.start();
    }

    /** Seconds since the JVM started at which {@code name} was loaded, or -1. */
    private static double loadedAt(List<String> classLog, String name) {
        for (String line : classLog) {
            if (line.contains("] " + name + " source:")) {
                return Double.parseDouble(line.substring(1, line.indexOf('s')));
            }
        }
        return -1;
    }

    @Test
    void itWaitsWithTheFrameworkLoadedAndRunsThePlanItIsGivenWithItsClockFromThen() throws Exception {
        Path classLog = dir.resolve("classes.log");
        Process jvm = start(classLog);
        Thread.sleep(1500);
        assertTrue(jvm.isAlive(), "it waits for its plan");
        Path events = dir.resolve("events.jsonl");
        StringBuilder plan = new StringBuilder("odrust-plan\t1\nmode\trun\nevents\t" + events + "\n");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            plan.append("classpath\t").append(entry).append('\n');
        }
        plan.append("sysprop\todrust.sample.out\t")
                .append(dir.resolve("seen.txt"))
                .append('\n');
        plan.append("segment\tjunit4\t").append(P).append("SampleJ4Fixed\n");
        plan.append("test\t").append(P).append("SampleJ4Fixed#b2\n");
        plan.append("segment\tjunit4\t").append(P).append("SampleCommandLine\n");
        plan.append("test\t").append(P).append("SampleCommandLine#namesThePlan\n");
        Path planFile = dir.resolve("plan.tsv");
        Files.write(planFile, plan.toString().getBytes(StandardCharsets.UTF_8));
        OutputStream in = jvm.getOutputStream();
        long sent = System.nanoTime();
        in.write((planFile + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        assertTrue(jvm.waitFor(60, TimeUnit.SECONDS), "it ran its plan and ended");
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);
        assertEquals(0, jvm.exitValue(), new String(Files.readAllBytes(dir.resolve("jvm.log"))));

        List<String> outcomes = new ArrayList<>();
        Long startMs = null;
        for (Map<String, Object> e : Harness.read(events)) {
            if ("test".equals(e.get("event"))) {
                outcomes.add(e.get("test") + " " + e.get("outcome"));
            }
            if ("start".equals(e.get("event"))) {
                startMs = ((Number) e.get("uptime_ms")).longValue();
            }
        }
        // the JVM's command line as a JVM started for this plan has it
        assertEquals(
                java.util.Arrays.asList(P + "SampleJ4Fixed#b2 pass", P + "SampleCommandLine#namesThePlan pass"),
                outcomes);
        assertEquals(
                Main.class.getName() + " " + planFile,
                new String(Files.readAllBytes(dir.resolve("command.txt")), StandardCharsets.UTF_8));
        assertTrue(startMs != null && startMs <= tookMs, "the clock counts from the plan: " + startMs + " ms");

        List<String> classes = Files.readAllLines(classLog);
        // A JUnit class no run of this plan needs was loaded ahead, before the plan came...
        double repeated = loadedAt(classes, "junit.extensions.RepeatedTest");
        assertTrue(repeated >= 0 && repeated < 1.5, "framework classes load ahead: " + repeated);
        // ...and the module's test class only after it.
        double sample = loadedAt(classes, P + "SampleJ4Fixed");
        assertTrue(sample >= 1.5, "the module's classes wait for the plan: " + sample);
    }

    @Test
    void withoutAPlanItEndsQuietly() throws Exception {
        Process jvm = start(dir.resolve("classes.log"));
        jvm.getOutputStream().close();
        assertTrue(jvm.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, jvm.exitValue());
        assertFalse(Files.exists(dir.resolve("events.jsonl")));
    }
}
