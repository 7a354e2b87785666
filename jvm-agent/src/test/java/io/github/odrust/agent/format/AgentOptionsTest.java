package io.github.odrust.agent.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentOptionsTest {
    @TempDir
    Path dir;

    @Test
    void recordOptionsReadBackTheSame() throws Exception {
        File classes = dir.resolve("target/classes").toFile();
        Path file = dir.resolve("odrust/record-options.txt");
        new AgentOptions.Writer()
                .comment("odrust: which classes the jvm-agent records static field accesses of")
                .root(classes)
                .constantType("org.slf4j.Logger")
                .include("com.acme.lib.")
                .write(file);
        assertEquals(
                "# odrust: which classes the jvm-agent records static field accesses of\nroot "
                        + classes.getAbsolutePath() + "\nconstant-type org.slf4j.Logger\ninclude com.acme.lib.\n",
                new String(Files.readAllBytes(file), "UTF-8"));
        AgentOptions o = AgentOptions.read(file.toString());
        assertEquals("record", o.mode);
        assertEquals(Collections.singletonList(classes.toPath().toAbsolutePath().normalize()), o.roots);
        assertEquals(Collections.singleton("org.slf4j.Logger"), o.constantTypes);
        assertEquals(Arrays.asList("com.acme.lib."), o.includes);
    }

    @Test
    void diagnoseOptionsReadBackTheSame() throws Exception {
        Path result = dir.resolve("exp-1/agent-result.json");
        Path capture = dir.resolve("exp-1/capture.xml");
        String text = new AgentOptions.Writer()
                .comment("odrust:diagnose experiment 1 (docs/diagnose.md)")
                .mode("diagnose")
                .include("com.acme.")
                .test("com.acme.VTest#v")
                .occurrence(2)
                .result(result)
                .capture(capture)
                .captureLimit(5000)
                .initialize("com.acme.Prices")
                .point("instance")
                .restoreFrom(dir.resolve("passing.xml").toString())
                .restoreField("com.acme.Prices.RATES")
                .restoreField("com.acme.Prices.TAX")
                .text();
        assertTrue(text.startsWith("# odrust:diagnose experiment 1 (docs/diagnose.md)\nmode diagnose\n"), text);
        AgentOptions o = AgentOptions.parse(text, "d");
        assertEquals("diagnose", o.mode);
        assertEquals(Arrays.asList("com.acme."), o.includes);
        assertEquals("com.acme.VTest#v", o.test);
        assertEquals(2, o.occurrence);
        assertEquals(result.toAbsolutePath(), o.result);
        assertEquals(capture.toAbsolutePath(), o.capture);
        assertEquals(5000, o.captureLimit);
        assertEquals(Arrays.asList("com.acme.Prices"), o.initialize);
        assertEquals(dir.resolve("passing.xml"), o.restoreFrom);
        assertEquals(Arrays.asList("com.acme.Prices.RATES", "com.acme.Prices.TAX"), o.restoreFields);
        assertEquals("instance", o.point);
        assertEquals("class", AgentOptions.parse("mode diagnose\ntest a.B#c\n", "d").point);
        AgentOptions.BadOptionsException bad = org.junit.jupiter.api.Assertions.assertThrows(
                AgentOptions.BadOptionsException.class,
                () -> AgentOptions.parse("mode diagnose\ntest a.B#c\npoint constructor\n", "d"));
        assertTrue(bad.getMessage().contains("point is 'class', 'instance' or 'test'"), bad.getMessage());
    }

    @Test
    void shuffleOptionsReadBackTheSame() throws Exception {
        Path log = dir.resolve("shuffle.jsonl");
        String text = new AgentOptions.Writer()
                .comment("odrust:detect-id run 3 (docs/id-tests.md)")
                .mode("shuffle")
                .root(dir.toFile())
                .filter("any")
                .seed(-42)
                .only(5, 5)
                .only(3, 7)
                .trackAllocations(true)
                .log(log)
                .text();
        assertTrue(
                text.contains("\nonly 5\nonly 3-7\ntrack-allocations true\nlog " + log.toAbsolutePath() + "\n"), text);
        AgentOptions o = AgentOptions.parse(text, "s");
        assertEquals("shuffle", o.mode);
        assertEquals(Long.valueOf(-42), o.seed);
        assertEquals(Arrays.asList(5L, 5L, 3L, 7L), o.only);
        assertTrue(o.anyCaller && o.trackAllocations);
        assertEquals(log.toAbsolutePath(), o.log);

        AgentOptions clean = AgentOptions.parse(
                new AgentOptions.Writer().mode("shuffle").log(log).text(), "c");
        assertNull(clean.seed);
        assertTrue(clean.only.isEmpty() && !clean.anyCaller && !clean.trackAllocations && clean.consistentCall == 0);

        AgentOptions consistent = AgentOptions.parse(
                new AgentOptions.Writer()
                        .mode("shuffle")
                        .seed(3)
                        .consistentCall(5)
                        .text(),
                "k");
        assertEquals(5L, consistent.consistentCall);
        for (String bad : new String[] {"0", "five"}) {
            AgentOptions.BadOptionsException e = org.junit.jupiter.api.Assertions.assertThrows(
                    AgentOptions.BadOptionsException.class,
                    () -> AgentOptions.parse("mode shuffle\nconsistent-call " + bad + "\n", "b"));
            assertTrue(e.getMessage().contains("consistent-call is a counted call's number"), e.getMessage());
        }

        String site = "HashMap$KeySet.iterator at com.a.Foo.names:12";
        AgentOptions oneCall = AgentOptions.parse(
                new AgentOptions.Writer()
                        .mode("shuffle")
                        .seed(3)
                        .onlyCall(2, site)
                        .text(),
                "n");
        assertEquals("2 " + site, oneCall.onlyCall);
        assertNull(clean.onlyCall);
        for (String bad : new String[] {"0 " + site, "two " + site, "2", "2 HashSet.iterator"}) {
            AgentOptions.BadOptionsException e = org.junit.jupiter.api.Assertions.assertThrows(
                    AgentOptions.BadOptionsException.class,
                    () -> AgentOptions.parse("mode shuffle\nonly-call " + bad + "\n", "b"));
            assertTrue(
                    e.getMessage().contains("only-call takes a call's number at its site"),
                    bad + ": " + e.getMessage());
        }
    }
}
