package io.github.odrust.agent.runner;

import static io.github.odrust.agent.runner.Harness.list;
import static io.github.odrust.agent.runner.Harness.strip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.samples.SampleLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Junit5AgentTest {
    @TempDir
    Path dir;

    private static Map<String, Object> record(Harness h, String cls) {
        for (Map<String, Object> c : h.events("class")) {
            if (strip((String) c.get("class")).equals(cls)) {
                return c;
            }
        }
        throw new AssertionError("no class record for " + cls + " in " + h.out);
    }

    @Test
    void surefiresGroupsKeepTheTaggedTestsAndItsExcludedGroupsDropThem() throws Exception {
        Harness h = Harness.discover(dir, "SampleJ5Tagged", "SampleJ4Categorized")
                .line("frameworks", "junit4,junit5")
                .line("groups", "fast, " + Harness.P + "SampleJ4Categorized$Slow")
                .line("excluded-groups", "slow")
                .go()
                .ok();
        assertEquals(list("SampleJ5Tagged#fast"), strip((List<?>)
                record(h, "SampleJ5Tagged").get("tests")));
        // a JUnit 4 category matches its subclasses too, as Surefire's JUnit 4.7+ provider does
        List<String> j4 =
                new ArrayList<>(strip((List<?>) record(h, "SampleJ4Categorized").get("tests")));
        j4.sort(null); // JUnit 4's own method order
        assertEquals(list("SampleJ4Categorized#slow", "SampleJ4Categorized#verySlow"), j4);

        Harness excluded = Harness.discover(dir, "SampleJ5Tagged", "SampleJ4Categorized")
                .line("frameworks", "junit4,junit5")
                .line("excluded-groups", "unit, " + Harness.P + "SampleJ4Categorized$Slow")
                .go()
                .ok();
        // every Jupiter test of the class is tagged unit: the class is not a test any more
        assertTrue(excluded.events("class").stream()
                .noneMatch(c -> String.valueOf(c.get("class")).endsWith("J5Tagged")));
        assertEquals(list("SampleJ4Categorized#plain"), strip((List<?>)
                record(excluded, "SampleJ4Categorized").get("tests")));
    }

    @Test
    void aGroupIsAJupiterTagExpression() throws Exception {
        Harness h = Harness.discover(dir, "SampleJ5Tagged")
                .line("frameworks", "junit5")
                .line("groups", "unit & !slow")
                .go()
                .ok();
        assertEquals(list("SampleJ5Tagged#fast", "SampleJ5Tagged#plain"), strip((List<?>)
                record(h, "SampleJ5Tagged").get("tests")));
    }

    @Test
    void aJunit4CategoryExpressionIsMatchedAsSurefireMatchesIt() throws Exception {
        String slow = Harness.P + "SampleJ4Categorized$Slow";
        String verySlow = Harness.P + "SampleJ4Categorized$VerySlow";
        String unit = Harness.P + "SampleJ4Categorized$Unit";
        Harness h = Harness.discover(dir, "SampleJ4Categorized")
                .line("frameworks", "junit4")
                .line("groups", slow + " & !" + verySlow)
                .go()
                .ok();
        assertEquals(list("SampleJ4Categorized#slow"), strip((List<?>)
                record(h, "SampleJ4Categorized").get("tests")));
        Harness excluded = Harness.discover(dir, "SampleJ4Categorized")
                .line("frameworks", "junit4")
                .line("excluded-groups", "NOT (" + slow + " OR com.example.NoSuchCategory) AND " + unit)
                .go()
                .ok();
        List<String> kept = new ArrayList<>(
                strip((List<?>) record(excluded, "SampleJ4Categorized").get("tests")));
        java.util.Collections.sort(kept);
        assertEquals(list("SampleJ4Categorized#slow", "SampleJ4Categorized#verySlow"), kept);
        // one Surefire cannot read either: said, and nothing filtered
        Harness broken = Harness.discover(dir, "SampleJ4Categorized")
                .line("frameworks", "junit4")
                .line("groups", slow + " &")
                .go()
                .ok();
        assertEquals(3, ((List<?>) record(broken, "SampleJ4Categorized").get("tests")).size());
        assertTrue(broken.events("warning").stream()
                .anyMatch(w -> String.valueOf(w.get("message")).contains("cannot be read as JUnit 4 categories")));
    }

    @Test
    void discoversJupiterClassesNestedAndDynamicAndFallsBackToJUnit4() throws Exception {
        Harness h = Harness.discover(
                        dir,
                        "SampleJ5Counter",
                        "SampleNotATest",
                        "SampleJ5Nested",
                        "SampleJ5Param",
                        "SampleJ5Ordered",
                        "SampleJ5Overloaded",
                        "SampleJ4Counter")
                .line("frameworks", "junit4,junit5")
                .go()
                .ok();
        List<String> names = new ArrayList<>();
        for (Map<String, Object> c : h.events("class")) {
            names.add(strip((String) c.get("class")));
        }
        assertEquals(
                list(
                        "SampleJ5Counter",
                        "SampleJ5Nested",
                        "SampleJ5Nested$Inner",
                        "SampleJ5Param",
                        "SampleJ5Ordered",
                        "SampleJ5Overloaded",
                        "SampleJ4Counter"),
                names);
        assertEquals("junit5", record(h, "SampleJ5Counter").get("framework"));
        assertEquals("junit4", record(h, "SampleJ4Counter").get("framework"));
        assertEquals(list("SampleJ5Nested#outer"), strip((List<?>)
                record(h, "SampleJ5Nested").get("tests")));
        List<String> inner = strip((List<?>) record(h, "SampleJ5Nested$Inner").get("tests"));
        assertEquals(2, inner.size());
        assertTrue(inner.containsAll(list("SampleJ5Nested$Inner#inner1", "SampleJ5Nested$Inner#inner2")));
        Map<String, Object> param = record(h, "SampleJ5Param");
        List<String> ptests = strip((List<?>) param.get("tests"));
        assertEquals(4, ptests.size());
        List<String> dyn = strip((List<?>) param.get("dynamic"));
        assertEquals(3, dyn.size());
        assertTrue(dyn.containsAll(list("SampleJ5Param#p", "SampleJ5Param#r", "SampleJ5Param#f")), dyn.toString());
        assertEquals(Boolean.TRUE, param.get("reorderable"));
        Map<String, Object> ordered = record(h, "SampleJ5Ordered");
        assertEquals(Boolean.FALSE, ordered.get("reorderable"));
        assertEquals(list("SampleJ5Ordered#a1", "SampleJ5Ordered#b2", "SampleJ5Ordered#c3"), strip((List<?>)
                ordered.get("tests")));
        assertTrue(((String) ordered.get("note")).contains("TestMethodOrder"));
        // overloads are distinct tests: the one without parameters keeps the plain id
        List<String> overloads = strip((List<?>) record(h, "SampleJ5Overloaded").get("tests"));
        assertEquals(3, overloads.size(), overloads.toString());
        assertTrue(
                overloads.containsAll(list(
                        "SampleJ5Overloaded#same",
                        "SampleJ5Overloaded#same(TestInfo)",
                        "SampleJ5Overloaded#same(int)")),
                overloads.toString());
        assertEquals(list("SampleJ5Overloaded#same(int)"), strip((List<?>)
                record(h, "SampleJ5Overloaded").get("dynamic")));
        assertEquals(0, h.events("warning").size(), h.events("warning").toString());

        // run the original order: it runs exactly so (dynamic containers expand to their invocations)
        Harness r = Harness.run(dir);
        List<String> expected = new ArrayList<>();
        for (Map<String, Object> c : h.events("class")) {
            r.line("segment", (String) c.get("framework"), (String) c.get("class"));
            List<?> d = (List<?>) c.get("dynamic");
            for (Object t : (List<?>) c.get("tests")) {
                r.line("test", (String) t);
                if (!d.contains(t)) {
                    expected.add(strip((String) t));
                }
            }
        }
        r.go().ok();
        List<String> ran = r.ran();
        List<String> plain = new ArrayList<>();
        for (String t : ran) {
            if (!t.contains("[")) {
                plain.add(t);
            }
        }
        assertEquals(expected, plain);
        // invocations: p (3), r (2), f (2), same(int) (2)
        assertEquals(expected.size() + 3 + 2 + 2 + 2, ran.size(), ran.toString());
        for (Map<String, Object> s : r.events("segment")) {
            assertNull(s.get("split"), s.toString());
        }
        // the outer class and its @Nested class are two segments: the outer @BeforeAll runs for each
        assertEquals(2, SampleLog.get("J5Nested.beforeAll"));
    }

    @Test
    void runsAnInterleavedOrderExactly() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Counter", "c", "a")
                .segment("junit5", "SampleJ5Other", "y", "x")
                .segment("junit5", "SampleJ5Counter", "b")
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ5Counter#c",
                        "SampleJ5Counter#a",
                        "SampleJ5Other#y",
                        "SampleJ5Other#x",
                        "SampleJ5Counter#b"),
                h.ran());
        assertEquals(h.ran(), h.started());
        assertEquals(
                list(
                        "J5Counter.beforeAll",
                        "J5Counter.c",
                        "J5Counter.a",
                        "J5Other.beforeAll",
                        "J5Other.y",
                        "J5Other.x",
                        "J5Counter.beforeAll",
                        "J5Counter.b"),
                SampleLog.LOG);
        for (Map<String, Object> s : h.events("segment")) {
            assertNull(s.get("split"));
        }
    }

    @Test
    void mixedFrameworksInOneRun() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Counter", "b")
                .segment("junit4", "SampleJ4Counter", "b")
                .segment("junit5", "SampleJ5Counter", "a")
                .go()
                .ok();
        assertEquals(list("SampleJ5Counter#b", "SampleJ4Counter#b", "SampleJ5Counter#a"), h.ran());
    }

    @Test
    void repeatedTestRunsTwiceInTwoParts() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Counter", "b", "b")
                .go()
                .ok();
        assertEquals(list("SampleJ5Counter#b", "SampleJ5Counter#b"), h.ran());
        assertEquals(2, SampleLog.get("J5Counter.beforeAll"));
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(2, segs.size());
        assertEquals("repeated-test", segs.get(0).get("split"));
        assertEquals("repeated-test", segs.get(1).get("split"));
    }

    @Test
    void fixedOrderClassAskedOutOfOrderIsSplit() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Ordered", "c3", "b2", "a1")
                .go()
                .ok();
        assertEquals(list("SampleJ5Ordered#c3", "SampleJ5Ordered#b2", "SampleJ5Ordered#a1"), h.ran());
        assertEquals(list("J5Ordered.c3", "J5Ordered.b2", "J5Ordered.a1"), SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(3, segs.size());
        for (Map<String, Object> s : segs) {
            assertEquals("fixed-order", s.get("split"));
        }
        // asked in its own order: one part
        Harness g = Harness.run(dir)
                .segment("junit5", "SampleJ5Ordered", "a1", "c3")
                .go()
                .ok();
        assertEquals(1, g.events("segment").size());
        assertNull(g.events("segment").get(0).get("split"));
    }

    @Test
    void dynamicContainersReportInvocationIds() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Param", "f", "plain", "p", "r")
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ5Param#f[1]",
                        "SampleJ5Param#f[2]",
                        "SampleJ5Param#plain",
                        "SampleJ5Param#p[1]",
                        "SampleJ5Param#p[2]",
                        "SampleJ5Param#p[3]",
                        "SampleJ5Param#r[1]",
                        "SampleJ5Param#r[2]"),
                h.ran());
        assertEquals(
                list(
                        "J5Param.fu",
                        "J5Param.fv",
                        "J5Param.plain",
                        "J5Param.p10",
                        "J5Param.p20",
                        "J5Param.p30",
                        "J5Param.r",
                        "J5Param.r"),
                SampleLog.LOG);
        assertEquals(1, h.events("segment").size());
    }

    @Test
    void selectsSingleInvocations() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Param", "p[3]", "plain", "p[1]", "f[2]")
                .go()
                .ok();
        assertEquals(
                list("SampleJ5Param#p[3]", "SampleJ5Param#plain", "SampleJ5Param#p[1]", "SampleJ5Param#f[2]"), h.ran());
        assertEquals(list("J5Param.p30", "J5Param.plain", "J5Param.p10", "J5Param.fv"), SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(2, segs.size());
        assertEquals("repeated-test", segs.get(0).get("split"));
        // ascending invocations of one method share one request
        Harness g = Harness.run(dir)
                .segment("junit5", "SampleJ5Param", "p[1]", "p[3]")
                .go()
                .ok();
        assertEquals(list("SampleJ5Param#p[1]", "SampleJ5Param#p[3]"), g.ran());
        assertEquals(1, g.events("segment").size());
    }

    @Test
    void nestedClassSegments() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Nested$Inner", "inner2", "inner1")
                .segment("junit5", "SampleJ5Nested", "outer")
                .go()
                .ok();
        assertEquals(
                list("SampleJ5Nested$Inner#inner2", "SampleJ5Nested$Inner#inner1", "SampleJ5Nested#outer"), h.ran());
        assertEquals(
                list(
                        "J5Nested.beforeAll",
                        "J5Nested.Inner.inner2",
                        "J5Nested.Inner.inner1",
                        "J5Nested.beforeAll",
                        "J5Nested.outer"),
                SampleLog.LOG);
    }

    @Test
    void classFailureReportsEveryListedTestAsError() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5ClassFails", "q", "p")
                .segment("junit5", "SampleJ5Counter", "a")
                .go()
                .ok();
        List<Map<String, Object>> cf = h.events("class-failure");
        assertEquals(1, cf.size());
        assertEquals("boom in @BeforeAll", cf.get(0).get("message"));
        assertEquals("java.lang.IllegalStateException", cf.get(0).get("exception"));
        assertEquals(list("SampleJ5ClassFails#q", "SampleJ5ClassFails#p", "SampleJ5Counter#a"), h.ran());
        assertEquals("error", h.outcome("SampleJ5ClassFails#q"));
        assertEquals("boom in @BeforeAll", h.test("SampleJ5ClassFails#p").get("message"));
        assertEquals(list("SampleJ5Counter#a"), h.started());
    }

    @Test
    void outcomesMessagesAndTraces() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Outcomes", "passes", "fails", "errors", "disabled", "assumes")
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ5Outcomes#passes",
                        "SampleJ5Outcomes#fails",
                        "SampleJ5Outcomes#errors",
                        "SampleJ5Outcomes#disabled",
                        "SampleJ5Outcomes#assumes"),
                h.ran());
        assertEquals("pass", h.outcome("SampleJ5Outcomes#passes"));
        Map<String, Object> f = h.test("SampleJ5Outcomes#fails");
        assertEquals("fail", f.get("outcome"));
        assertEquals("org.opentest4j.AssertionFailedError", f.get("exception"));
        assertTrue(
                ((String) f.get("message")).startsWith("snowman \u2603 and \uD83D\uDE00"), (String) f.get("message"));
        assertEquals("error", h.outcome("SampleJ5Outcomes#errors"));
        assertEquals("skipped", h.outcome("SampleJ5Outcomes#disabled"));
        assertEquals("not today", h.test("SampleJ5Outcomes#disabled").get("message"));
        assertEquals("skipped", h.outcome("SampleJ5Outcomes#assumes"));
    }

    @Test
    void overloadedMethodWithParametersIsSelectable() throws Exception {
        Harness h =
                Harness.run(dir).segment("junit5", "SampleJ5Other", "x").go().ok();
        assertEquals("pass", h.outcome("SampleJ5Other#x"));
    }

    @Test
    void overloadedTestMethodsRunByTheirOwnIds() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Overloaded", "same(int)[2]", "same", "same(TestInfo)", "same(int)[1]")
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ5Overloaded#same(int)[2]",
                        "SampleJ5Overloaded#same",
                        "SampleJ5Overloaded#same(TestInfo)",
                        "SampleJ5Overloaded#same(int)[1]"),
                h.ran());
        for (String t : h.ran()) {
            assertEquals("pass", h.outcome(t), t);
        }
        Harness missing = Harness.run(dir)
                .segment("junit5", "SampleJ5Overloaded", "same(String)")
                .go()
                .ok();
        assertEquals("error", missing.outcome("SampleJ5Overloaded#same(String)"));
    }

    @Test
    void aTestThatRunsTheJvmOutOfMemoryIsNamedNotAnInternalError() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5OutOfMemory", "exhaustsTheHeap")
                .go();
        assertEquals(Agent.OUT_OF_MEMORY, h.status, h.out.toString());
        assertEquals(1, h.events("out-of-memory").size(), h.out.toString());
        assertTrue(
                ((String) h.events("out-of-memory").get(0).get("message")).contains("Java heap space"),
                h.out.toString());
        assertEquals(0, h.events("agent-error").size(), h.out.toString());
    }

    @Test
    void unknownMethodIsAnError() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit5", "SampleJ5Counter", "a", "zzz", "b", "p[0]")
                .go()
                .ok();
        assertEquals(
                list("SampleJ5Counter#a", "SampleJ5Counter#zzz", "SampleJ5Counter#b", "SampleJ5Counter#p[0]"), h.ran());
        assertEquals("error", h.outcome("SampleJ5Counter#zzz"));
        assertEquals("error", h.outcome("SampleJ5Counter#p[0]"));
        assertEquals("pass", h.outcome("SampleJ5Counter#b"));
    }
}
