package io.github.odrust.agent.runner;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Ignore;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Runner;
import org.junit.runner.manipulation.Filter;
import org.junit.runner.manipulation.Filterable;
import org.junit.runner.manipulation.Sortable;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * JUnit 3 and 4 through the JUnit 4 API ({@code Request} + filter + sort), as Surefire's junit4
 * provider and the vintage engine run them. Works with JUnit 4.12 and 4.13.
 */
public final class Junit4Support implements Framework {
    private static final String FIX_METHOD_ORDER = "org.junit.FixMethodOrder";

    private Context ctx;
    private EventWriter events;

    public Junit4Support() {}

    @Override
    public void init(Context ctx) {
        this.ctx = ctx;
        this.events = ctx.events;
    }

    // ------------------------------------------------------------ discovery

    /** Surefire's JUnit4TestChecker (and JUnit3TestChecker): would the junit4 provider run this class? */
    static boolean isJUnit4Test(Class<?> cls) {
        if (cls.isInterface() || Modifier.isAbstract(cls.getModifiers())) {
            return false;
        }
        if (junit.framework.Test.class.isAssignableFrom(cls)) {
            return true;
        }
        try {
            Method suite = cls.getMethod("suite");
            if (Modifier.isStatic(suite.getModifiers())
                    && junit.framework.Test.class.isAssignableFrom(suite.getReturnType())) {
                return true;
            }
        } catch (NoSuchMethodException | LinkageError e) {
            // not a suite() class
        }
        if (cls.getAnnotation(org.junit.runner.RunWith.class) != null) { // @RunWith is @Inherited
            return true;
        }
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            Method[] methods;
            try {
                methods = c.getDeclaredMethods();
            } catch (LinkageError e) {
                continue;
            }
            for (Method m : methods) {
                for (Annotation a : m.getAnnotations()) {
                    if (org.junit.Test.class.isAssignableFrom(a.annotationType())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    static String fixedOrder(Class<?> cls) {
        for (Annotation a : cls.getAnnotations()) {
            if (a.annotationType().getName().equals(FIX_METHOD_ORDER)) {
                String v = "";
                try {
                    v = String.valueOf(a.annotationType().getMethod("value").invoke(a));
                } catch (Exception | LinkageError e) {
                    // keep empty
                }
                return "@FixMethodOrder(" + v + ")";
            }
        }
        return null;
    }

    @Override
    public boolean discover(Class<?> cls) {
        if (!isJUnit4Test(cls)) {
            return false;
        }
        Runner runner = Request.aClass(cls).getRunner();
        List<Description> leaves = new ArrayList<>();
        leaves(runner.getDescription(), leaves);
        List<String> ids = new ArrayList<>();
        boolean initError = false;
        boolean ignoredClass = false;
        for (Description d : leaves) {
            if (d.getMethodName() == null) {
                ignoredClass = true; // e.g. an @Ignore'd class: one description without methods
                continue;
            }
            if ("initializationError".equals(d.getMethodName())) {
                initError = true;
            }
            ids.add(id(d));
        }
        String fixed = fixedOrder(cls);
        boolean sortable = runner instanceof Sortable;
        String note = null;
        if (initError) {
            note = "JUnit reports an initializationError for this class";
            events.warning(
                    cls.getName(),
                    "JUnit reports an initializationError for " + cls.getName() + " (runner "
                            + runner.getClass().getName() + "): it errors when run, as under Surefire");
        } else if (fixed != null) {
            note = fixed + ": tests of this class run in its own fixed order";
        } else if (!sortable) {
            note = "runner " + runner.getClass().getName()
                    + " is not Sortable: tests of this class run in its own fixed order";
            events.warning(cls.getName(), note);
        } else if (ignoredClass && ids.isEmpty()) {
            note = "class is ignored (@Ignore): no tests";
        }
        events.write(Json.event("class")
                .put("class", cls.getName())
                .put("framework", "junit4")
                .put("reorderable", sortable && fixed == null && !initError)
                .put("tests", ids)
                .put("dynamic", Collections.emptyList())
                .put("note", note));
        return true;
    }

    static void leaves(Description d, List<Description> out) {
        if (d.isTest()) {
            out.add(d);
        } else {
            for (Description c : d.getChildren()) {
                leaves(c, out);
            }
        }
    }

    static String id(Description d) {
        String m = d.getMethodName();
        return d.getClassName() + "#" + (m == null ? d.getDisplayName() : m);
    }

    static boolean isMethodLeaf(Description d) {
        return d.isTest() && d.getMethodName() != null;
    }

    // ------------------------------------------------------------ run

    @Override
    public void runSegment(int index, Class<?> cls, List<String> tests) {
        Runner fullRunner = Request.aClass(cls).getRunner();
        List<Description> all = new ArrayList<>();
        leaves(fullRunner.getDescription(), all);
        Set<String> known = new HashSet<>();
        for (Description d : all) {
            known.add(id(d));
        }
        int size = tests.size();
        int pos = 0;
        int part = 0;
        String prevReason = null;
        while (pos < size) {
            String first = tests.get(pos);
            if (!known.contains(first)) {
                Agent.segmentEvent(
                        events,
                        index,
                        part++,
                        cls.getName(),
                        "junit4",
                        Collections.singletonList(first),
                        size > 1 ? "not-found" : null);
                events.test(
                        first,
                        "error",
                        0,
                        null,
                        "no test " + first + " in " + cls.getName() + " (JUnit 4 runner "
                                + fullRunner.getClass().getName() + " does not describe it)");
                prevReason = "not-found";
                pos++;
                continue;
            }
            int limit = pos;
            Set<String> seen = new HashSet<>();
            while (limit < size && known.contains(tests.get(limit)) && seen.add(tests.get(limit))) {
                limit++;
            }
            String endReason = limit < size ? (known.contains(tests.get(limit)) ? "repeated-test" : "not-found") : null;
            List<String> cand = new ArrayList<>(tests.subList(pos, limit));
            Runner r = build(cls, cand);
            List<String> got = leafIds(r);
            boolean notFilterable = false;
            if (!got.equals(cand)) {
                if (!new HashSet<>(got).equals(new HashSet<>(cand))) {
                    notFilterable = true;
                    endReason = "not-filterable";
                } else {
                    endReason = orderReason(cls, r);
                    while (!got.equals(cand) && cand.size() > 1) {
                        int d = Agent.firstDifference(got, cand);
                        cand = new ArrayList<>(cand.subList(0, Math.max(1, d)));
                        r = build(cls, cand);
                        got = leafIds(r);
                    }
                }
            }
            boolean whole = pos == 0 && cand.size() == size && !notFilterable;
            String split = whole ? null : (pos + cand.size() < size || notFilterable ? endReason : prevReason);
            Agent.segmentEvent(events, index, part++, cls.getName(), "junit4", cand, split);
            runPart(r, cand);
            prevReason = endReason;
            pos += cand.size();
        }
    }

    private static String orderReason(Class<?> cls, Runner r) {
        if (fixedOrder(cls) != null) {
            return "fixed-order";
        }
        if (!(r instanceof Sortable)) {
            return "not-sortable";
        }
        return "framework-order";
    }

    private static List<String> leafIds(Runner r) {
        List<Description> ls = new ArrayList<>();
        leaves(r.getDescription(), ls);
        List<String> ids = new ArrayList<>();
        for (Description d : ls) {
            ids.add(id(d));
        }
        return ids;
    }

    /**
     * A JUnit 3 {@code TestCase} class (no {@code @RunWith}, no {@code suite()} method) whose
     * tests are built in exactly the order of {@code ids}: JUnit 3 suites cannot be sorted after
     * the fact, but they can be assembled in any order.
     */
    static Runner buildJunit3(Class<?> cls, List<String> ids) {
        if (!junit.framework.TestCase.class.isAssignableFrom(cls)
                || cls.getAnnotation(org.junit.runner.RunWith.class) != null) {
            return null;
        }
        try {
            cls.getMethod("suite");
            return null; // a hand-made suite decides its own content and order
        } catch (NoSuchMethodException expected) {
            // a plain TestCase
        }
        junit.framework.TestSuite suite = new junit.framework.TestSuite(cls.getName());
        for (String id : ids) {
            suite.addTest(junit.framework.TestSuite.createTest(cls, id.substring(id.indexOf('#') + 1)));
        }
        return new org.junit.internal.runners.JUnit38ClassRunner(suite);
    }

    /** A fresh runner for {@code cls}, filtered to exactly {@code ids} and sorted in their order. */
    static Runner build(Class<?> cls, List<String> ids) {
        Runner junit3 = buildJunit3(cls, ids);
        if (junit3 != null) {
            return junit3;
        }
        final Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!rank.containsKey(ids.get(i))) {
                rank.put(ids.get(i), i);
            }
        }
        final Map<Description, Integer> memo = new HashMap<>();
        Filter filter = new Filter() {
            @Override
            public boolean shouldRun(Description d) {
                return minRank(d, rank, memo) != Integer.MAX_VALUE;
            }

            @Override
            public String describe() {
                return "odrust requested tests (" + rank.size() + ")";
            }
        };
        Comparator<Description> order = new Comparator<Description>() {
            @Override
            public int compare(Description a, Description b) {
                return Integer.compare(minRank(a, rank, memo), minRank(b, rank, memo));
            }
        };
        Runner runner = Request.aClass(cls).getRunner();
        if (runner instanceof Filterable) {
            try {
                ((Filterable) runner).filter(filter);
            } catch (org.junit.runner.manipulation.NoTestsRemainException e) {
                // cannot happen: ids were checked against the description; fall through and run as is
            }
        }
        if (runner instanceof Sortable) {
            ((Sortable) runner).sort(new org.junit.runner.manipulation.Sorter(order));
        }
        return runner;
    }

    static int minRank(Description d, Map<String, Integer> rank, Map<Description, Integer> memo) {
        Integer cached = memo.get(d);
        if (cached != null) {
            return cached;
        }
        int best = Integer.MAX_VALUE;
        if (d.isTest()) {
            Integer r = rank.get(id(d));
            if (r != null) {
                best = r;
            }
        } else {
            for (Description c : d.getChildren()) {
                best = Math.min(best, minRank(c, rank, memo));
            }
        }
        memo.put(d, best);
        return best;
    }

    private void runPart(Runner runner, List<String> listed) {
        Listener l = new Listener();
        JUnitCore core = new JUnitCore();
        core.addListener(l);
        try {
            core.run(runner);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("odrust-agent: JUnit failed running " + runner.getDescription() + ": " + e);
            if (l.classFailure == null) {
                l.classFailure = new Failure(runner.getDescription(), e);
                l.classOutcome = "error";
            }
        } finally {
            core.removeListener(l);
        }
        l.finish(listed);
    }

    /** Turns JUnit 4 notifications into events, one {@code test} event per test. */
    private final class Listener extends RunListener {
        private final Map<Description, Long> started = new HashMap<>();
        private final Map<Description, Failure> failures = new LinkedHashMap<>();
        private final Map<Description, Boolean> assumption = new HashMap<>();
        private final Set<String> reported = new HashSet<>();
        private Failure classFailure;
        private String classOutcome;

        @Override
        public void testStarted(Description d) {
            if (!isMethodLeaf(d)) {
                return;
            }
            started.put(d, System.nanoTime());
            events.testStarted(id(d));
        }

        @Override
        public void testFailure(Failure f) {
            failed(f, false);
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            failed(f, true);
        }

        private synchronized void failed(Failure f, boolean assumed) {
            Description d = f.getDescription();
            if (d != null && isMethodLeaf(d)) {
                if (!failures.containsKey(d)) {
                    failures.put(d, f);
                    assumption.put(d, assumed);
                }
                return;
            }
            String outcome = assumed ? "skipped" : "error";
            Throwable t = f.getException();
            events.write(Json.event("class-failure")
                    .put("class", d == null ? null : (d.getClassName() != null ? d.getClassName() : d.getDisplayName()))
                    .put("message", t == null ? f.getMessage() : t.getMessage())
                    .put("exception", t == null ? null : t.getClass().getName())
                    .put("trace", t == null ? null : EventWriter.trace(t))
                    .put("outcome", outcome));
            if (classFailure == null) {
                classFailure = f;
                classOutcome = outcome;
            }
        }

        @Override
        public void testIgnored(Description d) {
            if (isMethodLeaf(d)) {
                Ignore ig = d.getAnnotation(Ignore.class);
                String msg = ig == null || ig.value().isEmpty() ? "ignored" : ig.value();
                report(id(d), "skipped", 0, null, msg);
            } else if (classFailure == null) {
                // a whole class ignored: its listed tests are reported as skipped in finish()
                classOutcome = "skipped";
            }
        }

        @Override
        public void testFinished(Description d) {
            if (!isMethodLeaf(d)) {
                return;
            }
            Long t0 = started.remove(d);
            long ms = t0 == null ? 0 : (System.nanoTime() - t0) / 1_000_000L;
            Failure f;
            Boolean assumed;
            synchronized (this) {
                f = failures.remove(d);
                assumed = assumption.remove(d);
            }
            if (f == null) {
                report(id(d), "pass", ms, null, null);
            } else {
                Throwable t = f.getException();
                String outcome =
                        Boolean.TRUE.equals(assumed) ? "skipped" : (t instanceof AssertionError ? "fail" : "error");
                report(id(d), outcome, ms, t, t == null ? f.getMessage() : null);
            }
        }

        private void report(String id, String outcome, long ms, Throwable t, String msg) {
            synchronized (this) {
                reported.add(id);
            }
            events.test(id, outcome, ms, t, msg);
        }

        void finish(List<String> listed) {
            // failures JUnit reported without testFinished
            List<Map.Entry<Description, Failure>> pending;
            synchronized (this) {
                pending = new ArrayList<>(failures.entrySet());
                failures.clear();
            }
            for (Map.Entry<Description, Failure> e : pending) {
                Throwable t = e.getValue().getException();
                boolean assumed = Boolean.TRUE.equals(assumption.get(e.getKey()));
                report(
                        id(e.getKey()),
                        assumed ? "skipped" : (t instanceof AssertionError ? "fail" : "error"),
                        0,
                        t,
                        null);
            }
            for (String id : listed) {
                if (reported.contains(id)) {
                    continue;
                }
                if (classFailure != null) {
                    Throwable t = classFailure.getException();
                    String msg = t == null ? classFailure.getMessage() : t.getMessage();
                    report(id, classOutcome, 0, t, msg);
                } else if ("skipped".equals(classOutcome)) {
                    report(id, "skipped", 0, null, "class ignored");
                } else {
                    report(id, "error", 0, null, "JUnit did not run " + id + " (not reported by the runner)");
                }
            }
        }
    }
}
