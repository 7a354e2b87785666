package io.github.odrust.agent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PlanTest {
    @Test
    void parsesAllLines() throws Exception {
        Plan p = Plan.parse(
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
        Plan p = Plan.parse(
                "odrust-plan\t1\nmode\trun\nevents\tC:\\\\tmp\\\\e.jsonl\n" + "sysprop\tesc\ta\\tb\\nc\\rd\\\\e\\qf\n",
                "p");
        assertEquals("C:\\tmp\\e.jsonl", p.events);
        assertEquals("a\tb\nc\rd\\e\\qf", p.sysprops.get("esc"));
    }

    @Test
    void frameworksDefaultToAll() throws Exception {
        Plan p = Plan.parse("odrust-plan\t1\nmode\tdiscover\nevents\t/e\ncandidate\tcom.A\n", "p");
        assertNull(p.frameworks);
        assertTrue(p.frameworkEnabled("junit4"));
        assertEquals(Arrays.asList("com.A"), p.candidates);
        Plan q = Plan.parse("odrust-plan\t1\nmode\tdiscover\nevents\t/e\nframeworks\tjunit5\n", "p");
        assertTrue(!q.frameworkEnabled("junit4") && q.frameworkEnabled("junit5"));
    }

    @Test
    void rejectsBadPlans() {
        assertThrows(Plan.BadPlanException.class, () -> Plan.parse("", "p"));
        assertThrows(Plan.BadPlanException.class, () -> Plan.parse("odrust-plan\t2\nmode\trun\nevents\t/e\n", "p"));
        assertThrows(Plan.BadPlanException.class, () -> Plan.parse("mode\trun\n", "p"));
        assertThrows(Plan.BadPlanException.class, () -> Plan.parse("odrust-plan\t1\nmode\tfly\nevents\t/e\n", "p"));
        assertThrows(Plan.BadPlanException.class, () -> Plan.parse("odrust-plan\t1\nmode\trun\n", "p"));
        assertThrows(
                Plan.BadPlanException.class,
                () -> Plan.parse("odrust-plan\t1\nmode\trun\nevents\t/e\ntest\tcom.A#a\n", "p"));
        assertThrows(
                Plan.BadPlanException.class,
                () -> Plan.parse("odrust-plan\t1\nmode\trun\nevents\t/e\nsegment\ttestng\tcom.A\n", "p"));
    }
}
