package io.github.odrust.agent.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanFileTest {
    @Test
    void parsesAllLines() throws Exception {
        PlanFile p = PlanFile.parse(
                "odrust-plan\t1\r\nmode\trun\nevents\t/tmp/e.jsonl\nclasspath\t/a b/c\nclasspath\t/d\n"
                        + "sysprop\tbasedir\t/m\nsysprop\ttabbed\tx\ty\nconfig\tk\tv\nframeworks\tjunit4, junit5\n"
                        + "\n# comment\nsegment\tjunit4\tcom.A\ntest\tcom.A#b\ntest\tcom.A#a\nsegment\tjunit5\tcom.B\ntest\tcom.B#x\n"
                        + "future-key\twhatever\n",
                "p");
        assertEquals("run", p.mode);
        assertEquals("/tmp/e.jsonl", p.events);
        assertEquals(Arrays.asList("/a b/c", "/d"), p.classpath);
        assertEquals("/m", p.sysprops.get("basedir"));
        assertEquals("x\ty", p.sysprops.get("tabbed"));
        assertEquals("v", p.config.get("k"));
        assertTrue(p.frameworkEnabled("junit4") && p.frameworkEnabled("junit5"));
        assertEquals(2, p.segments.size());
        assertEquals("junit4", p.segments.get(0).framework);
        assertEquals("com.A", p.segments.get(0).className);
        assertEquals(Arrays.asList("com.A#b", "com.A#a"), p.segments.get(0).tests);
        assertEquals(Arrays.asList("com.B#x"), p.segments.get(1).tests);
    }

    @Test
    void unescapesFields() throws Exception {
        PlanFile p = PlanFile.parse(
                "odrust-plan\t1\nmode\trun\nevents\tC:\\\\tmp\\\\e.jsonl\n" + "sysprop\tesc\ta\\tb\\nc\\rd\\\\e\\qf\n",
                "p");
        assertEquals("C:\\tmp\\e.jsonl", p.events);
        assertEquals("a\tb\nc\rd\\e\\qf", p.sysprops.get("esc"));
    }

    @Test
    void frameworksDefaultToAll() throws Exception {
        PlanFile p = PlanFile.parse("odrust-plan\t1\nmode\tdiscover\nevents\t/e\ncandidate\tcom.A\n", "p");
        assertNull(p.frameworks);
        assertTrue(p.frameworkEnabled("junit4"));
        assertEquals(Arrays.asList("com.A"), p.candidates);
        PlanFile q = PlanFile.parse("odrust-plan\t1\nmode\tdiscover\nevents\t/e\nframeworks\tjunit5\n", "p");
        assertTrue(!q.frameworkEnabled("junit4") && q.frameworkEnabled("junit5"));
    }

    @Test
    void rejectsBadPlans() {
        assertThrows(PlanFile.BadPlanException.class, () -> PlanFile.parse("", "p"));
        assertThrows(
                PlanFile.BadPlanException.class, () -> PlanFile.parse("odrust-plan\t2\nmode\trun\nevents\t/e\n", "p"));
        assertThrows(PlanFile.BadPlanException.class, () -> PlanFile.parse("mode\trun\n", "p"));
        assertThrows(
                PlanFile.BadPlanException.class, () -> PlanFile.parse("odrust-plan\t1\nmode\tfly\nevents\t/e\n", "p"));
        assertThrows(PlanFile.BadPlanException.class, () -> PlanFile.parse("odrust-plan\t1\nmode\trun\n", "p"));
        assertThrows(
                PlanFile.BadPlanException.class,
                () -> PlanFile.parse("odrust-plan\t1\nmode\trun\nevents\t/e\ntest\tcom.A#a\n", "p"));
        assertThrows(
                PlanFile.BadPlanException.class,
                () -> PlanFile.parse("odrust-plan\t1\nmode\trun\nevents\t/e\nsegment\ttestng\tcom.A\n", "p"));
    }

    @Test
    void writtenPlansReadBackTheSame(@TempDir Path dir) throws Exception {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("basedir", "/m");
        props.put("odd", "a\tb\nc\rd\\e");
        Map<String, String> config = new LinkedHashMap<>();
        config.put("junit.jupiter.execution.parallel.enabled", "false");
        Path file = dir.resolve("plans/p.txt");
        new PlanFile.Writer("run", dir.resolve("e.jsonl"))
                .frameworks(Arrays.asList("junit4", "junit5"))
                .classpath(Arrays.asList(new File("/a b/classes"), new File("/lib/x.jar")))
                .systemProperties(props)
                .configurationParameters(config)
                .segment("junit4", "p.A", Arrays.asList("p.A#a", "p.A#b"))
                .segment("junit5", "p.B", Arrays.asList("p.B#x[1]"))
                .write(file);
        PlanFile p = PlanFile.read(file);
        assertEquals("run", p.mode);
        assertEquals(dir.resolve("e.jsonl").toAbsolutePath().toString(), p.events);
        assertEquals(new LinkedHashSet<>(Arrays.asList("junit4", "junit5")), p.frameworks);
        assertEquals(
                Arrays.asList(new File("/a b/classes").getAbsolutePath(), new File("/lib/x.jar").getAbsolutePath()),
                p.classpath);
        assertEquals(props, p.sysprops);
        assertEquals(config, p.config);
        assertEquals(2, p.segments.size());
        assertEquals("junit4", p.segments.get(0).framework);
        assertEquals("p.A", p.segments.get(0).className);
        assertEquals(Arrays.asList("p.A#a", "p.A#b"), p.segments.get(0).tests);
        assertEquals(Arrays.asList("p.B#x[1]"), p.segments.get(1).tests);

        PlanFile d = PlanFile.parse(
                new PlanFile.Writer("discover", dir.resolve("d.jsonl"))
                        .candidate("p.A")
                        .candidate("p.B")
                        .text(),
                "d");
        assertEquals("discover", d.mode);
        assertEquals(Arrays.asList("p.A", "p.B"), d.candidates);
        assertNull(d.frameworks);
    }

    @Test
    void writesTheVersionFirstAndEscapesFields() {
        String text = new PlanFile.Writer("run", Paths.get("/e.jsonl"))
                .systemProperties(Collections.singletonMap("k", "multi\nline"))
                .text();
        assertTrue(text.startsWith("odrust-plan\t" + PlanFile.VERSION + "\nmode\trun\n"), text);
        assertTrue(text.contains("sysprop\tk\tmulti\\nline\n"), text);
        assertEquals("a\\tb\\nc\\\\d\\r", PlanFile.escape("a\tb\nc\\d\r"));
        assertEquals("a\tb\nc\\d\r", PlanFile.unescape(PlanFile.escape("a\tb\nc\\d\r")));
    }
}
