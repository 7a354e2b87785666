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
    private final Junit3Suites.Cache suites = new Junit3Suites.Cache();

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

    /** Surefire's groups as JUnit 4 categories, once per JVM; null when none are set or they cannot be matched. */
    private Categories categories;

    private boolean categoriesRead;

    private Categories categories(Class<?> first) {
        if (!categoriesRead) {
            categoriesRead = true;
            Groups.Expr include;
            Groups.Expr exclude;
            try {
                include = Groups.parse(ctx.plan.groups);
                exclude = Groups.parse(ctx.plan.excludedGroups);
            } catch (IllegalArgumentException e) {
                events.warning(
                        first.getName(),
                        "Surefire's groups/excludedGroups cannot be read as JUnit 4 categories (" + e.getMessage()
                                + "): every JUnit 4 test is discovered; mvn test fails on it too");
                return null;
            }
            if (include != null || exclude != null) {
                try {
                    Class.forName("org.junit.experimental.categories.Category", false, ctx.loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    events.warning(
                            first.getName(),
                            "Surefire's groups/excludedGroups name JUnit 4 categories, which this JUnit (before 4.8)"
                                    + " does not have: every JUnit 4 test is discovered");
                    return null;
                }
                categories = new Categories(include, exclude, ctx.loader);
            }
        }
        return categories;
    }

    /**
     * Which JUnit 4 tests Surefire's groups keep, as its JUnit 4.7+ provider matches categories: a
     * test's categories are its method's and its class's {@code @Category} (inherited), and a
     * group name matches when it names one of them or a supertype of one (a name that is no class
     * matches nothing); kept when the {@code groups} expression matches (or none is set) and the
     * {@code excludedGroups} one does not.
     */
    static final class Categories {
        private final Groups.Expr include;
        private final Groups.Expr exclude;
        private final ClassLoader loader;
        private final java.util.Map<String, Class<?>> named = new java.util.HashMap<>();

        Categories(Groups.Expr include, Groups.Expr exclude, ClassLoader loader) {
            this.include = include;
            this.exclude = exclude;
            this.loader = loader;
        }

        boolean keeps(Description d, Class<?> cls) {
            List<Class<?>> of = new ArrayList<>();
            add(of, d.getAnnotation(org.junit.experimental.categories.Category.class));
            Class<?> testClass = d.getTestClass() != null ? d.getTestClass() : cls;
            add(of, testClass.getAnnotation(org.junit.experimental.categories.Category.class));
            java.util.function.Predicate<String> has = name -> {
                Class<?> g = named.computeIfAbsent(name, n -> {
                    try {
                        return Class.forName(n, false, loader);
                    } catch (ClassNotFoundException | LinkageError e) {
                        return null; // no such category: it matches no JUnit 4 test (as a tag no JUnit 4 test has)
                    }
                });
                return g != null && of.stream().anyMatch(g::isAssignableFrom);
            };
            if (include != null && !include.matches(has)) {
                return false;
            }
            return exclude == null || !exclude.matches(has);
        }

        private static void add(List<Class<?>> to, org.junit.experimental.categories.Category c) {
            if (c == null) {
                return;
            }
            try {
                Collections.addAll(to, c.value());
            } catch (RuntimeException | LinkageError e) {
                // a category class that cannot be loaded matches nothing
            }
        }
    }

    @Override
    public boolean discover(Class<?> cls) {
        if (!isJUnit4Test(cls)) {
            return false;
        }
        Junit3Suites.Tree suite = suiteTree(cls);
        if (suite != null) {
            discoverSuite(suite);
            return true;
        }
        Runner runner = Request.aClass(cls).getRunner();
        List<Description> leaves = new ArrayList<>();
        leaves(runner.getDescription(), leaves);
        List<String> ids = new ArrayList<>();
        boolean initError = false;
        boolean ignoredClass = false;
        Categories groups = categories(cls);
        for (Description d : leaves) {
            if (d.getMethodName() == null) {
                ignoredClass = true; // e.g. an @Ignore'd class: one description without methods
                continue;
            }
            if ("initializationError".equals(d.getMethodName())) {
                initError = true;
            } else if (groups != null && !groups.keeps(d, cls)) {
                continue;
            }
            ids.add(id(d));
        }
        if (groups != null && ids.isEmpty()) {
            return true; // every test of the class is out of Surefire's groups
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

    /**
     * The tree {@code cls.suite()} builds, or null when JUnit does not run the class through its
     * {@code suite()} method, or the method fails (JUnit's own runner then reports the error).
     */
    private Junit3Suites.Tree suiteTree(Class<?> cls) {
        if (!Junit3Suites.usesSuiteMethod(cls)) {
            return null;
        }
        try {
            Junit3Suites.Tree t = suites.get(cls);
            // suite() returning one JUnit 4 adapter (new JUnit4TestAdapter(X.class)): JUnit's own
            // runner describes, filters and sorts its methods; the suite path adds nothing
            boolean adapter = !(t.root instanceof junit.framework.TestCase)
                    && !(t.root instanceof junit.framework.TestSuite)
                    && !(t.root instanceof junit.extensions.TestDecorator);
            return adapter ? null : t;
        } catch (Throwable t) {
            return null;
        }
    }

    private void discoverSuite(Junit3Suites.Tree suite) {
        List<String> ids = suite.ids();
        int named = 0;
        for (String id : ids) {
            if (id.endsWith("]")) {
                named++;
            }
        }
        String note = "JUnit 3 suite(): " + ids.size() + (ids.size() == 1 ? " test" : " tests") + " built at run time";
        if (named > 0) {
            note += "; " + named + " named by their place in the suite (Class#name[suite path]): their names repeat"
                    + " or they belong to another class";
        }
        if (suite.opaque > 0) {
            note += "; " + suite.opaque + " not JUnit 3 test cases (e.g. a JUnit 4 adapter), each run as one test";
        }
        events.write(Json.event("class")
                .put("class", suite.suiteClass.getName())
                .put("framework", "junit4")
                .put("reorderable", true)
                .put("tests", ids)
                .put("dynamic", Collections.emptyList())
                .put("note", note));
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
        Junit3Suites.Tree suite = suiteTree(cls);
        if (suite != null) {
            runSuiteSegment(index, suite, tests);
            return;
        }
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

    /**
     * A segment of a {@code suite()} class: the suite built once for this class loader, each part
     * (split at an unknown or a repeated id, as other JUnit 4 classes are) run through a copy of
     * the tree with exactly the part's tests in the part's order.
     */
    private void runSuiteSegment(int index, Junit3Suites.Tree suite, List<String> tests) {
        String cls = suite.suiteClass.getName();
        int size = tests.size();
        int pos = 0;
        int part = 0;
        String prevReason = null;
        while (pos < size) {
            String first = tests.get(pos);
            if (!suite.byId.containsKey(first)) {
                Agent.segmentEvent(
                        events,
                        index,
                        part++,
                        cls,
                        "junit4",
                        Collections.singletonList(first),
                        size > 1 ? "not-found" : null);
                events.test(first, "error", 0, null, "no test " + first + " in the suite " + cls + ".suite() builds");
                prevReason = "not-found";
                pos++;
                continue;
            }
            int limit = pos;
            Set<String> seen = new HashSet<>();
            while (limit < size && suite.byId.containsKey(tests.get(limit)) && seen.add(tests.get(limit))) {
                limit++;
            }
            String endReason =
                    limit < size ? (suite.byId.containsKey(tests.get(limit)) ? "repeated-test" : "not-found") : null;
            List<String> cand = new ArrayList<>(tests.subList(pos, limit));
            boolean whole = pos == 0 && cand.size() == size;
            Agent.segmentEvent(
                    events, index, part++, cls, "junit4", cand, whole ? null : (limit < size ? endReason : prevReason));
            Junit3Suites.Tree tree = suite;
            try {
                tree = suites.fresh(suite.suiteClass, cand);
            } catch (Throwable t) {
                System.err.println("odrust-agent: " + cls + ".suite() failed when built again: " + t
                        + "; its tests run again on the instances of their first run");
            }
            List<Junit3Suites.Leaf> leaves = Junit3Suites.leaves(tree, cand);
            for (Junit3Suites.Leaf l : leaves) {
                tree.ran.add(l.test);
            }
            new SuiteListener(leaves).run(Junit3Suites.prune(tree, leaves), cand);
            prevReason = endReason;
            pos = limit;
        }
    }

    /** Turns a JUnit 3 run's notifications into events, one {@code test} event per leaf of the suite. */
    private final class SuiteListener implements junit.framework.TestListener, Junit3Suites.Hearing {
        /**
         * Per test instance, the requested tests it stands for, in the order asked: one instance
         * added at two places of the suite is two tests, each start taken in turn.
         */
        private final Map<junit.framework.Test, java.util.ArrayDeque<Junit3Suites.Leaf>> leafOf =
                new java.util.IdentityHashMap<>();

        private final String suiteClass;
        private final Set<String> reported = new HashSet<>();
        private Junit3Suites.Leaf running;
        private Junit3Suites.Leaf opaque;
        private long t0;
        private Throwable failure;
        private Throwable classFailure;

        SuiteListener(List<Junit3Suites.Leaf> requested) {
            for (Junit3Suites.Leaf l : requested) {
                leafOf.computeIfAbsent(l.test, k -> new java.util.ArrayDeque<>())
                        .add(l);
            }
            suiteClass = requested.isEmpty()
                    ? null
                    : requested.get(0).id.substring(0, requested.get(0).id.indexOf('#'));
        }

        void run(junit.framework.Test test, List<String> listed) {
            junit.framework.TestResult result = new junit.framework.TestResult();
            result.addListener(this);
            Junit3Suites.HEARING.set(this);
            try {
                test.run(result);
            } catch (RuntimeException | LinkageError e) {
                System.err.println("odrust-agent: JUnit failed running " + test + ": " + e);
                if (running != null) {
                    finished(running, e);
                } else if (classFailure == null) {
                    classFailure = e;
                }
            } finally {
                Junit3Suites.HEARING.remove();
            }
            for (String id : listed) {
                if (reported.add(id)) {
                    if (classFailure != null) {
                        events.test(
                                id, classFailure instanceof AssertionError ? "fail" : "error", 0, classFailure, null);
                    } else {
                        events.test(id, "error", 0, null, "JUnit did not run " + id + " (the suite did not run it)");
                    }
                }
            }
        }

        private void started(Junit3Suites.Leaf leaf) {
            running = leaf;
            failure = null;
            t0 = System.nanoTime();
            events.testStarted(leaf.id);
        }

        private void finished(Junit3Suites.Leaf leaf, Throwable extra) {
            Throwable t = failure != null ? failure : extra;
            long ms = (System.nanoTime() - t0) / 1_000_000L;
            reported.add(leaf.id);
            events.test(leaf.id, t == null ? "pass" : (t instanceof AssertionError ? "fail" : "error"), ms, t, null);
            running = null;
            failure = null;
        }

        @Override
        public void startTest(junit.framework.Test test) {
            java.util.ArrayDeque<Junit3Suites.Leaf> next = leafOf.get(test);
            if (next != null && !next.isEmpty() && opaque == null) {
                started(next.poll());
            }
            // a test run more often than asked (a RepeatedTest): its further runs are not tests of
            // their own; a failure there is a class-level failure
        }

        @Override
        public void endTest(junit.framework.Test test) {
            if (running != null && running.test == test && opaque == null) {
                finished(running, null);
            }
        }

        @Override
        public void addError(junit.framework.Test test, Throwable t) {
            failed(test, t);
        }

        @Override
        public void addFailure(junit.framework.Test test, junit.framework.AssertionFailedError t) {
            failed(test, t);
        }

        private void failed(junit.framework.Test test, Throwable t) {
            if (running != null && (running.test == test || opaque != null)) {
                if (failure == null) {
                    failure = t;
                }
                return;
            }
            // a decorator's setUp or tearDown (TestSetup), outside any test
            events.write(Json.event("class-failure")
                    .put(
                            "class",
                            suiteClass != null ? suiteClass : test.getClass().getName())
                    .put("message", t == null ? null : t.getMessage())
                    .put("exception", t == null ? null : t.getClass().getName())
                    .put("trace", t == null ? null : EventWriter.trace(t))
                    .put("outcome", "error"));
            if (classFailure == null) {
                classFailure = t;
            }
        }

        @Override
        public void opaqueStarted(Junit3Suites.Leaf leaf) {
            started(leaf);
            opaque = leaf;
        }

        @Override
        public void opaqueFinished(Junit3Suites.Leaf leaf) {
            opaque = null;
            if (running == leaf) {
                finished(leaf, null);
            }
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
