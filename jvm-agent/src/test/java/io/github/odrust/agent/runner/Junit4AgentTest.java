package io.github.odrust.agent.runner;

import static io.github.odrust.agent.runner.Harness.list;
import static io.github.odrust.agent.runner.Harness.strip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.agent.samples.SampleLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.runner.Description;
import org.junit.runner.Request;

class Junit4AgentTest {
    @TempDir
    Path dir;

    private static List<String> junitOrder(Class<?> c) {
        List<Description> ls = new ArrayList<>();
        Junit4Support.leaves(Request.aClass(c).getRunner().getDescription(), ls);
        List<String> ids = new ArrayList<>();
        for (Description d : ls) {
            ids.add(strip(d.getClassName() + "#" + d.getMethodName()));
        }
        return ids;
    }

    @Test
    void discoversClassesInCandidateOrderWithJUnitsOwnTestOrder() throws Exception {
        Harness h = Harness.discover(
                        dir,
                        "SampleJ4Other",
                        "SampleNotATest",
                        "SampleJ4Abstract",
                        "SampleJ4Sub",
                        "SampleJ4Counter",
                        "SampleJ4Fixed",
                        "SampleJ4Param")
                .line("frameworks", "junit4")
                .go()
                .ok();
        List<Map<String, Object>> classes = h.events("class");
        List<String> names = new ArrayList<>();
        for (Map<String, Object> c : classes) {
            names.add(strip((String) c.get("class")));
            assertEquals("junit4", c.get("framework"));
            assertEquals(list(), c.get("dynamic"));
        }
        assertEquals(list("SampleJ4Other", "SampleJ4Sub", "SampleJ4Counter", "SampleJ4Fixed", "SampleJ4Param"), names);
        assertEquals(junitOrder(io.github.odrust.agent.samples.SampleJ4Counter.class), strip((List<?>)
                classes.get(2).get("tests")));
        assertEquals(
                list("SampleJ4Sub#inherited"), strip((List<?>) classes.get(1).get("tests")));
        assertEquals(list("SampleJ4Fixed#a1", "SampleJ4Fixed#b2", "SampleJ4Fixed#c3"), strip((List<?>)
                classes.get(3).get("tests")));
        assertEquals(Boolean.TRUE, classes.get(2).get("reorderable"));
        assertEquals(Boolean.FALSE, classes.get(3).get("reorderable"));
        assertTrue(((String) classes.get(3).get("note")).contains("FixMethodOrder"));
        List<String> param = strip((List<?>) classes.get(4).get("tests"));
        assertEquals(4, param.size());
        assertTrue(
                param.containsAll(
                        list("SampleJ4Param#m[0]", "SampleJ4Param#n[0]", "SampleJ4Param#m[1]", "SampleJ4Param#n[1]")),
                param.toString());
        assertEquals(Boolean.TRUE, classes.get(4).get("reorderable"));
        // the original order, when run, runs exactly so
        Harness r = Harness.run(dir);
        for (Map<String, Object> c : classes) {
            List<?> tests = (List<?>) c.get("tests");
            r.line("segment", "junit4", (String) c.get("class"));
            for (Object t : tests) {
                r.line("test", (String) t);
            }
        }
        r.go().ok();
        List<String> all = new ArrayList<>();
        for (Map<String, Object> c : classes) {
            all.addAll(strip((List<?>) c.get("tests")));
        }
        assertEquals(all, r.ran());
        assertNull(r.events("segment").get(0).get("split"));
    }

    @Test
    void runsAnInterleavedOrderExactly() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Counter", "c", "a")
                .segment("junit4", "SampleJ4Other", "y")
                .segment("junit4", "SampleJ4Counter", "b")
                .go()
                .ok();
        assertEquals(list("SampleJ4Counter#c", "SampleJ4Counter#a", "SampleJ4Other#y", "SampleJ4Counter#b"), h.ran());
        assertEquals(h.ran(), h.started());
        assertEquals(2, SampleLog.get("J4Counter.beforeClass"));
        assertEquals(1, SampleLog.get("J4Other.beforeClass"));
        assertEquals(
                list(
                        "J4Counter.beforeClass",
                        "J4Counter.c",
                        "J4Counter.a",
                        "J4Other.beforeClass",
                        "J4Other.y",
                        "J4Counter.beforeClass",
                        "J4Counter.b"),
                SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(3, segs.size());
        assertEquals(0L, segs.get(0).get("index"));
        assertEquals(2L, segs.get(2).get("index"));
        assertEquals(list("SampleJ4Counter#c", "SampleJ4Counter#a"), strip((List<?>)
                segs.get(0).get("tests")));
        for (String t : h.ran()) {
            assertEquals("pass", h.outcome(t));
        }
    }

    @Test
    void repeatedTestRunsTwiceInTwoParts() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Counter", "a", "a")
                .go()
                .ok();
        assertEquals(list("SampleJ4Counter#a", "SampleJ4Counter#a"), h.ran());
        assertEquals(2, SampleLog.get("J4Counter.a"));
        assertEquals(2, SampleLog.get("J4Counter.beforeClass"));
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(2, segs.size());
        assertEquals("repeated-test", segs.get(0).get("split"));
        assertEquals(1L, segs.get(1).get("part"));
    }

    @Test
    void regressionJunit3CaseRunsInAnyOrderAsOneSegment() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ3Case", "testC", "testA", "testB")
                .go()
                .ok();
        assertEquals(list("SampleJ3Case#testC", "SampleJ3Case#testA", "SampleJ3Case#testB"), h.ran());
        assertEquals(list("J3.testC", "J3.testA", "J3.testB"), SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(1, segs.size(), segs.toString());
        assertEquals(null, segs.get(0).get("split"));
    }

    private static final String KEYS_SIZE = "SampleJ3Suite#testSize[keys/SampleJ3Suite$Inner]";
    private static final String VALUES_SIZE = "SampleJ3Suite#testSize[values/SampleJ3Suite$Inner]";
    private static final String VALUES_EMPTY = "SampleJ3Suite#testEmpty[values/SampleJ3Suite$Inner]";
    private static final String ADAPTED = "SampleJ3Suite#SampleJ4Other[SampleJ4Other]";

    private static String m(String shortId) {
        return shortId.substring(shortId.indexOf('#') + 1);
    }

    @Test
    void junit3SuiteTestsGetIdsUniqueInTheirClassByTheirPlaceInTheSuite() throws Exception {
        int built = io.github.odrust.agent.samples.SampleJ3Suite.suiteBuilt;
        Harness h = Harness.discover(dir, "SampleJ3Suite")
                .line("frameworks", "junit4")
                .go()
                .ok();
        Map<String, Object> c = h.events("class").get(0);
        List<String> ids = strip((List<?>) c.get("tests"));
        assertEquals(7, ids.size(), ids.toString());
        assertEquals(7, new java.util.HashSet<>(ids).size(), "ids are unique: " + ids);
        assertTrue(ids.containsAll(list("SampleJ3Suite#testOwn", "SampleJ3Suite#testFails")), ids.toString());
        assertEquals(
                list(
                        KEYS_SIZE,
                        "SampleJ3Suite#testEmpty[keys/SampleJ3Suite$Inner]",
                        VALUES_SIZE,
                        VALUES_EMPTY,
                        ADAPTED),
                ids.subList(2, 7));
        assertEquals(Boolean.TRUE, c.get("reorderable"));
        assertTrue(((String) c.get("note")).contains("5 named by their place in the suite"), (String) c.get("note"));
        assertEquals(built + 1, io.github.odrust.agent.samples.SampleJ3Suite.suiteBuilt, "suite() called once");
    }

    @Test
    void junit3SuiteRunsAnySubsetInAnyOrderWithDecoratorsAroundTheirTestsAndBuildsTheSuiteOnce() throws Exception {
        int built = io.github.odrust.agent.samples.SampleJ3Suite.suiteBuilt;
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ3Suite", m(VALUES_EMPTY), "testOwn", m(KEYS_SIZE), m(VALUES_SIZE))
                .segment("junit4", "SampleJ4Counter", "a")
                .segment("junit4", "SampleJ3Suite", m(ADAPTED), "testFails")
                .go()
                .ok();
        assertEquals(
                list(
                        VALUES_EMPTY,
                        "SampleJ3Suite#testOwn",
                        KEYS_SIZE,
                        VALUES_SIZE,
                        "SampleJ4Counter#a",
                        ADAPTED,
                        "SampleJ3Suite#testFails"),
                h.ran());
        assertEquals(h.ran(), h.started());
        assertEquals(
                list(
                        "values.setUp",
                        "values.testEmpty",
                        "values.tearDown",
                        "J3Suite.testOwn",
                        "keys.testSize",
                        "values.setUp",
                        "values.testSize",
                        "values.tearDown",
                        "J4Counter.beforeClass",
                        "J4Counter.a",
                        "J4Other.beforeClass",
                        "J4Other.x",
                        "J4Other.y",
                        "J3Suite.testFails"),
                SampleLog.LOG);
        assertEquals("pass", h.outcome(VALUES_EMPTY));
        assertEquals("pass", h.outcome(ADAPTED));
        assertEquals("fail", h.outcome("SampleJ3Suite#testFails"));
        assertTrue(((String) h.test("SampleJ3Suite#testFails").get("message")).contains("expected to fail"));
        assertEquals(built + 1, io.github.odrust.agent.samples.SampleJ3Suite.suiteBuilt, "suite() built once per JVM");
        for (Map<String, Object> seg : h.events("segment")) {
            assertNull(seg.get("split"), seg.toString());
        }
    }

    @Test
    void junit3SuiteNamesAnUnknownTestAndARepeatedOneSplitsItsSegment() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ3Suite", "testOwn", "testNoSuch", m(KEYS_SIZE), m(KEYS_SIZE))
                .go()
                .ok();
        assertEquals(list("SampleJ3Suite#testOwn", "SampleJ3Suite#testNoSuch", KEYS_SIZE, KEYS_SIZE), h.ran());
        assertEquals("error", h.events("test").get(1).get("outcome"));
        assertTrue(((String) h.events("test").get(1).get("message")).contains("suite()"));
        assertEquals(list("J3Suite.testOwn", "keys.testSize", "keys.testSize"), SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(4, segs.size(), segs.toString());
        assertEquals("not-found", segs.get(0).get("split"));
        assertEquals("repeated-test", segs.get(2).get("split"));
    }

    @Test
    void junit3SuiteDecoratorSetUpFailureFailsItsTestsAsAClassFailure() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ3BrokenSetup", "testA[SampleJ3BrokenSetup]", "testB")
                .go()
                .ok();
        assertEquals("error", h.outcome("SampleJ3BrokenSetup#testA[SampleJ3BrokenSetup]"));
        assertTrue(((String)
                        h.test("SampleJ3BrokenSetup#testA[SampleJ3BrokenSetup]").get("message"))
                .contains("setUp broke"));
        assertEquals(
                Harness.P + "SampleJ3BrokenSetup",
                h.events("class-failure").get(0).get("class"),
                "named by the suite class");
        assertEquals("pass", h.outcome("SampleJ3BrokenSetup#testB"));
        assertEquals(1, h.events("class-failure").size());
        assertEquals(list("J3Broken.testB"), SampleLog.LOG);
    }

    @Test
    void junit3SuiteCornersSharedInstancesSubclassesSameNamesAndThrowingTests() throws Exception {
        Harness d = Harness.discover(dir, "SampleJ3Odd")
                .line("frameworks", "junit4")
                .go()
                .ok();
        List<String> ids = strip((List<?>) d.events("class").get(0).get("tests"));
        assertEquals(
                list(
                        "SampleJ3Odd#testShared[SampleJ3Odd]",
                        "SampleJ3Odd#testShared[SampleJ3Odd (2)]",
                        "SampleJ3Odd#testA",
                        "SampleJ3Odd#testB",
                        "SampleJ3Odd#testSame[SampleJ3Odd]",
                        "SampleJ3Odd#testSize[SampleJ3Suite$Inner]",
                        "SampleJ3Odd#testSame[SampleJ3Odd$Other]",
                        "SampleJ3Odd#SampleJ3Odd$2[SampleJ3Odd$2]",
                        "SampleJ3Odd#odd_name[SampleJ3Odd/name=odd name]"),
                ids);
        dir.resolve("events.jsonl").toFile().delete();
        Harness h = Harness.run(dir)
                .segment(
                        "junit4",
                        "SampleJ3Odd",
                        m("SampleJ3Odd#testShared[SampleJ3Odd (2)]"),
                        "testB",
                        m("SampleJ3Odd#testSame[SampleJ3Odd$Other]"),
                        m("SampleJ3Odd#testShared[SampleJ3Odd]"),
                        m("SampleJ3Odd#SampleJ3Odd$2[SampleJ3Odd$2]"),
                        m("SampleJ3Odd#testSame[SampleJ3Odd]"))
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ3Odd#testShared[SampleJ3Odd (2)]",
                        "SampleJ3Odd#testB",
                        "SampleJ3Odd#testSame[SampleJ3Odd$Other]",
                        "SampleJ3Odd#testShared[SampleJ3Odd]",
                        "SampleJ3Odd#SampleJ3Odd$2[SampleJ3Odd$2]",
                        "SampleJ3Odd#testSame[SampleJ3Odd]"),
                h.ran());
        // the second place's decorator around the shared instance, the subclass's own run() around
        // the one test asked of it, then the first place's decorator
        assertEquals(
                list(
                        "second.setUp",
                        "testShared",
                        "custom.run",
                        "testB",
                        "other.testSame",
                        "first.setUp",
                        "testShared",
                        "own.testSame"),
                SampleLog.LOG);
        assertEquals("error", h.outcome("SampleJ3Odd#SampleJ3Odd$2[SampleJ3Odd$2]"));
        assertTrue(((String) h.test("SampleJ3Odd#SampleJ3Odd$2[SampleJ3Odd$2]").get("message"))
                .contains("thrown out of run"));
        assertEquals("pass", h.outcome("SampleJ3Odd#testSame[SampleJ3Odd]"));
    }

    @Test
    void aSuiteOfOneJunit4AdapterIsRunByJunitsOwnRunner() throws Exception {
        Harness d = Harness.discover(dir, "SampleJ3Adapter")
                .line("frameworks", "junit4")
                .go()
                .ok();
        List<String> ids = strip((List<?>) d.events("class").get(0).get("tests"));
        assertEquals(list("SampleJ4Other#x", "SampleJ4Other#y"), ids);
    }

    @Test
    void fixedOrderClassAskedOutOfOrderIsSplit() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Fixed", "c3", "a1", "b2")
                .go()
                .ok();
        assertEquals(list("SampleJ4Fixed#c3", "SampleJ4Fixed#a1", "SampleJ4Fixed#b2"), h.ran());
        assertEquals(list("J4Fixed.c3", "J4Fixed.a1", "J4Fixed.b2"), SampleLog.LOG);
        List<Map<String, Object>> segs = h.events("segment");
        // JUnit 4.13 keeps @FixMethodOrder: c3 alone, then a1,b2 (which is the fixed order)
        assertEquals(2, segs.size(), segs.toString());
        for (Map<String, Object> s : segs) {
            assertEquals("fixed-order", s.get("split"));
        }
        assertEquals(list("SampleJ4Fixed#c3"), strip((List<?>) segs.get(0).get("tests")));
    }

    @Test
    void parameterizedInvocationsRunInTheRequestedOrder() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Param", "n[1]", "m[0]", "m[1]")
                .go()
                .ok();
        assertEquals(list("SampleJ4Param#n[1]", "SampleJ4Param#m[0]", "SampleJ4Param#m[1]"), h.ran());
        assertEquals(list("J4Param.n2", "J4Param.m1", "J4Param.m2"), SampleLog.LOG);
        // Parameterized groups by parameter: n[1] alone (JUnit would run m[1] right after it), then m[0], m[1]
        List<Map<String, Object>> segs = h.events("segment");
        assertEquals(2, segs.size());
        assertEquals(list("SampleJ4Param#n[1]"), strip((List<?>) segs.get(0).get("tests")));
        assertEquals("framework-order", segs.get(0).get("split"));
        assertEquals("framework-order", segs.get(1).get("split"));
    }

    @Test
    void classFailureReportsEveryListedTestAsError() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4ClassFails", "q", "p")
                .segment("junit4", "SampleJ4Counter", "a")
                .go()
                .ok();
        List<Map<String, Object>> cf = h.events("class-failure");
        assertEquals(1, cf.size());
        assertEquals("boom in @BeforeClass", cf.get(0).get("message"));
        assertEquals("java.lang.IllegalStateException", cf.get(0).get("exception"));
        assertEquals("error", cf.get(0).get("outcome"));
        assertEquals(list("SampleJ4ClassFails#q", "SampleJ4ClassFails#p", "SampleJ4Counter#a"), h.ran());
        assertEquals("error", h.outcome("SampleJ4ClassFails#q"));
        assertEquals("boom in @BeforeClass", h.test("SampleJ4ClassFails#p").get("message"));
        assertEquals("pass", h.outcome("SampleJ4Counter#a"));
        assertTrue(h.started().equals(list("SampleJ4Counter#a")));
    }

    @Test
    void outcomesMessagesAndTraces() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Outcomes", "passes", "fails", "errors", "ignored", "assumes")
                .go()
                .ok();
        assertEquals("pass", h.outcome("SampleJ4Outcomes#passes"));
        Map<String, Object> f = h.test("SampleJ4Outcomes#fails");
        assertEquals("fail", f.get("outcome"));
        assertEquals("java.lang.AssertionError", f.get("exception"));
        assertTrue(((String) f.get("message")).startsWith("quote\" backslash\\ tab\t"), (String) f.get("message"));
        assertTrue(((String) f.get("trace")).contains("\tat "), (String) f.get("trace"));
        Map<String, Object> e = h.test("SampleJ4Outcomes#errors");
        assertEquals("error", e.get("outcome"));
        assertEquals("bad state", e.get("message"));
        assertEquals("java.lang.IllegalStateException", e.get("exception"));
        assertEquals("skipped", h.outcome("SampleJ4Outcomes#ignored"));
        assertEquals("not today", h.test("SampleJ4Outcomes#ignored").get("message"));
        assertEquals("skipped", h.outcome("SampleJ4Outcomes#assumes"));
        assertNotNull(h.test("SampleJ4Outcomes#passes").get("time_ms"));
        assertNull(h.test("SampleJ4Outcomes#passes").get("trace"));
    }

    @Test
    void unknownTestAndMissingClassAreErrorsAndTheRunGoesOn() throws Exception {
        Harness h = Harness.run(dir)
                .segment("junit4", "SampleJ4Counter", "a", "nope", "b")
                .segment("junit4", "DoesNotExist", "t")
                .segment("junit4", "SampleJ4Other", "x")
                .go()
                .ok();
        assertEquals(
                list(
                        "SampleJ4Counter#a",
                        "SampleJ4Counter#nope",
                        "SampleJ4Counter#b",
                        "DoesNotExist#t",
                        "SampleJ4Other#x"),
                h.ran());
        assertEquals("error", h.outcome("SampleJ4Counter#nope"));
        assertEquals("error", h.outcome("DoesNotExist#t"));
        assertTrue(((String) h.test("DoesNotExist#t").get("message")).contains("not found"));
        assertEquals("pass", h.outcome("SampleJ4Counter#b"));
        assertEquals("pass", h.outcome("SampleJ4Other#x"));
        assertFalse(h.events("segment").isEmpty());
    }
}
