package io.github.odrust.agent.runner.junit5;

import io.github.odrust.agent.runner.Agent;
import io.github.odrust.agent.runner.Context;
import io.github.odrust.agent.runner.EventWriter;
import io.github.odrust.agent.runner.Framework;
import io.github.odrust.agent.runner.Groups;
import io.github.odrust.agent.runner.Json;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * JUnit 5 (Jupiter) through the JUnit Platform Launcher, 1.5+. Loaded only when a JUnit 5 class is
 * discovered or run, so JUnit-4-only projects need no platform classes.
 */
public final class Junit5Support implements Framework {
    static final String JUPITER = "junit-jupiter";
    static final String METHOD_ORDER_PARAM = "junit.jupiter.testmethod.order.default";
    static final String PARALLEL_PARAM = "junit.jupiter.execution.parallel.enabled";
    private static final String TEST_METHOD_ORDER = "org.junit.jupiter.api.TestMethodOrder";
    private static final Set<String> DYNAMIC_SEGMENTS =
            new HashSet<>(java.util.Arrays.asList("test-template-invocation", "dynamic-test", "dynamic-container"));
    private static final Set<String> TESTABLE = new HashSet<>(java.util.Arrays.asList(
            "org.junit.jupiter.api.Test",
            "org.junit.jupiter.api.TestTemplate",
            "org.junit.jupiter.api.TestFactory",
            "org.junit.platform.commons.annotation.Testable"));
    private static final Pattern ITERATION = Pattern.compile("^(.+)\\[(\\d+)\\]$");

    /** {@code DiscoverySelectors.selectIteration(DiscoverySelector, int...)}, JUnit Platform 1.9+. */
    private static final Method SELECT_ITERATION = selectIteration();

    private Context ctx;
    private EventWriter events;
    private Launcher launcher;
    private final Set<String> emitted = new HashSet<>();

    public Junit5Support() {}

    private static Method selectIteration() {
        try {
            return DiscoverySelectors.class.getMethod("selectIteration", DiscoverySelector.class, int[].class);
        } catch (NoSuchMethodException | LinkageError e) {
            return null;
        }
    }

    @Override
    public void init(Context ctx) {
        this.ctx = ctx;
        this.events = ctx.events;
        this.launcher = LauncherFactory.create();
    }

    private LauncherDiscoveryRequest request(List<DiscoverySelector> selectors, Map<String, String> config) {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors)
                .filters(EngineFilter.includeEngines(JUPITER))
                .configurationParameters(config)
                .build();
    }

    // ------------------------------------------------------------ discovery

    /**
     * Surefire's {@code groups} and {@code excludedGroups} as its JUnit Platform provider applies
     * them: each comma-separated element a tag expression, tests with any included and none
     * excluded kept.
     */
    private LauncherDiscoveryRequest withGroups(LauncherDiscoveryRequestBuilder b) {
        List<String> include = Groups.split(ctx.plan.groups);
        List<String> exclude = Groups.split(ctx.plan.excludedGroups);
        if (!include.isEmpty()) {
            b.filters(TagFilter.includeTags(include));
        }
        if (!exclude.isEmpty()) {
            b.filters(TagFilter.excludeTags(exclude));
        }
        return b.build();
    }

    @Override
    public boolean discover(Class<?> cls) {
        if (emitted.contains(cls.getName())) {
            return true; // already written as a @Nested class of its enclosing class
        }
        TestPlan plan;
        try {
            plan = launcher.discover(withGroups(LauncherDiscoveryRequestBuilder.request()
                    .selectors(Collections.<DiscoverySelector>singletonList(DiscoverySelectors.selectClass(cls)))
                    .filters(EngineFilter.includeEngines(JUPITER))
                    .configurationParameters(ctx.config())));
        } catch (RuntimeException | LinkageError e) {
            events.warning(cls.getName(), "JUnit Platform discovery failed: " + e);
            return false;
        }
        boolean any = false;
        for (TestIdentifier root : plan.getRoots()) {
            any |= hasMethods(plan, root);
        }
        if (!any) {
            return false;
        }
        for (TestIdentifier root : plan.getRoots()) {
            walk(plan, root, cls.getName());
        }
        return true;
    }

    private static boolean hasMethods(TestPlan plan, TestIdentifier ti) {
        if (source(ti) instanceof MethodSource) {
            return true;
        }
        for (TestIdentifier c : plan.getChildren(ti)) {
            if (hasMethods(plan, c)) {
                return true;
            }
        }
        return false;
    }

    private void walk(TestPlan plan, TestIdentifier ti, String top) {
        TestSource src = source(ti);
        if (src instanceof ClassSource) {
            String name = ((ClassSource) src).getClassName();
            if ((name.equals(top) || name.startsWith(top + "$")) && emitted.add(name)) {
                classRecord(plan, ti, name);
            }
        }
        for (TestIdentifier c : plan.getChildren(ti)) {
            if (!(source(c) instanceof MethodSource)) {
                walk(plan, c, top);
            }
        }
    }

    private void classRecord(TestPlan plan, TestIdentifier ti, String className) {
        List<String> tests = new ArrayList<>();
        List<String> dynamic = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (TestIdentifier c : plan.getChildren(ti)) {
            TestSource src = source(c);
            if (!(src instanceof MethodSource)) {
                continue;
            }
            MethodSource ms = (MethodSource) src;
            String id = methodId(ms);
            if (!seen.add(id)) {
                events.warning(
                        className,
                        "overloaded test methods named " + ms.getMethodName() + " in " + className
                                + ": odrust names tests by method name and keeps only the first (" + id + ")");
                continue;
            }
            tests.add(id);
            if (c.isContainer()) {
                dynamic.add(id);
            }
        }
        String order = methodOrder(className);
        events.write(Json.event("class")
                .put("class", className)
                .put("framework", "junit5")
                .put("reorderable", order == null)
                .put("tests", tests)
                .put("dynamic", dynamic)
                .put("note", order == null ? null : order + ": tests of this class run in its own fixed order"));
    }

    /** "@TestMethodOrder(X)" when the class or an enclosing class has it, else null. */
    private String methodOrder(String className) {
        Class<?> c;
        try {
            c = Class.forName(className, false, ctx.loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        for (; c != null; c = c.getEnclosingClass()) {
            for (Annotation a : c.getAnnotations()) {
                if (a.annotationType().getName().equals(TEST_METHOD_ORDER)) {
                    String v = "";
                    try {
                        Object k = a.annotationType().getMethod("value").invoke(a);
                        v = k instanceof Class ? ((Class<?>) k).getName() : String.valueOf(k);
                    } catch (Exception | LinkageError e) {
                        // keep empty
                    }
                    return "@TestMethodOrder(" + v + ")";
                }
            }
            if (Modifier.isStatic(c.getModifiers())) {
                break; // a static nested class is not @Nested: enclosing orders do not apply
            }
        }
        return null;
    }

    static TestSource source(TestIdentifier ti) {
        Optional<TestSource> s = ti.getSource();
        return s.isPresent() ? s.get() : null;
    }

    // ------------------------------------------------------------ run

    /** One listed item of a segment. */
    private static final class Item {
        final String id;
        String methodId;
        Method method;
        int iteration; // 0 = the whole method
        String problem;
        String problemKind;

        Item(String id) {
            this.id = id;
        }
    }

    private Item resolve(Class<?> cls, String id) {
        Item it = new Item(id);
        String cn = Context.classPart(id);
        String mp = Context.methodPart(id);
        if (!cn.equals(cls.getName()) || id.indexOf('#') < 0) {
            it.problem = "test " + id + " is not a test id of class " + cls.getName();
            it.problemKind = "not-found";
            return it;
        }
        Matcher m = ITERATION.matcher(mp);
        String name = mp;
        if (m.matches()) {
            name = m.group(1);
            try {
                it.iteration = Integer.parseInt(m.group(2));
            } catch (NumberFormatException e) {
                it.iteration = -1;
            }
            if (it.iteration < 1) {
                it.problem = "bad invocation number in " + id + " (invocations are counted from 1)";
                it.problemKind = "not-found";
                return it;
            }
        }
        it.methodId = cn + "#" + name;
        int open = name.indexOf('(');
        if (open > 0 && name.endsWith(")")) {
            it.method = findTestMethod(cls, name.substring(0, open), name.substring(open + 1, name.length() - 1));
        } else {
            it.method = findTestMethod(cls, name, null);
        }
        if (it.method == null) {
            it.problem = "no JUnit 5 test method " + name + " in " + cls.getName();
            it.problemKind = "not-found";
        } else if (it.iteration > 0 && SELECT_ITERATION == null) {
            it.problem = "JUnit Platform < 1.9 cannot select one invocation; use " + it.methodId;
            it.problemKind = "not-supported";
        }
        return it;
    }

    /**
     * The id of a test method: {@code C#m}; for a method with parameters whose name another test
     * method of its class also has, {@code C#m(Type, ...)} with JUnit's simple type names (as in its
     * display name and Surefire's report), so overloads are distinct tests.
     */
    private String methodId(MethodSource ms) {
        String base = ms.getClassName() + "#" + ms.getMethodName();
        String params = ms.getMethodParameterTypes();
        if (params == null || params.trim().isEmpty() || !overloaded(ms.getClassName(), ms.getMethodName())) {
            return base;
        }
        StringBuilder simple = new StringBuilder();
        for (String p : params.split(",")) {
            String t = p.trim();
            t = t.substring(Math.max(t.lastIndexOf('.'), t.lastIndexOf('$')) + 1);
            simple.append(simple.length() == 0 ? "" : ", ").append(t);
        }
        return base + "(" + simple + ")";
    }

    private final Map<String, Boolean> overloads = new HashMap<>();

    /** Whether class {@code className} has more than one test method named {@code name}. */
    private boolean overloaded(String className, String name) {
        String key = className + "#" + name;
        Boolean known = overloads.get(key);
        if (known == null) {
            Set<String> signatures = new HashSet<>();
            try {
                for (Method m : namedMethods(Class.forName(className, false, ctx.loader), name)) {
                    if (isTestable(m)) {
                        signatures.add(simpleParameters(m)); // an override has its parent's signature
                    }
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // unknown: not overloaded
            }
            known = signatures.size() > 1;
            overloads.put(key, known);
        }
        return known;
    }

    /** The simple names of {@code m}'s parameter types, as JUnit writes them: {@code Character, boolean}. */
    static String simpleParameters(Method m) {
        StringBuilder out = new StringBuilder();
        for (Class<?> t : m.getParameterTypes()) {
            out.append(out.length() == 0 ? "" : ", ").append(t.getSimpleName());
        }
        return out.toString();
    }

    /**
     * The test method {@code name} of {@code cls} (or its superclasses and interfaces); with
     * {@code parameters} (simple type names), the overload that has them.
     */
    static Method findTestMethod(Class<?> cls, String name, String parameters) {
        for (Method m : namedMethods(cls, name)) {
            if (isTestable(m)
                    && (parameters == null
                            ? m.getParameterCount() == 0 || !hasNoArgTest(cls, name)
                            : parameters.equals(simpleParameters(m)))) {
                return m;
            }
        }
        return null;
    }

    /** Whether {@code cls} has a test method {@code name} without parameters. */
    private static boolean hasNoArgTest(Class<?> cls, String name) {
        for (Method m : namedMethods(cls, name)) {
            if (isTestable(m) && m.getParameterCount() == 0) {
                return true;
            }
        }
        return false;
    }

    private static List<Method> namedMethods(Class<?> cls, String name) {
        List<Method> candidates = new ArrayList<>();
        for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
            addNamed(c, name, candidates);
        }
        Set<Class<?>> seenIfaces = new LinkedHashSet<>();
        for (Class<?> c = cls; c != null; c = c.getSuperclass()) {
            collectInterfaces(c, seenIfaces);
        }
        for (Class<?> i : seenIfaces) {
            addNamed(i, name, candidates);
        }
        return candidates;
    }

    private static void addNamed(Class<?> c, String name, List<Method> out) {
        try {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(name) && !m.isSynthetic() && !m.isBridge()) {
                    out.add(m);
                }
            }
        } catch (LinkageError e) {
            // skip unloadable class
        }
    }

    private static void collectInterfaces(Class<?> c, Set<Class<?>> out) {
        for (Class<?> i : c.getInterfaces()) {
            if (out.add(i)) {
                collectInterfaces(i, out);
            }
        }
    }

    static boolean isTestable(Method m) {
        try {
            return testable(m.getAnnotations(), new HashSet<String>(), 0);
        } catch (LinkageError e) {
            return false;
        }
    }

    private static boolean testable(Annotation[] as, Set<String> visited, int depth) {
        if (depth > 4) {
            return false;
        }
        for (Annotation a : as) {
            String n = a.annotationType().getName();
            if (TESTABLE.contains(n)) {
                return true;
            }
            if (n.startsWith("java.lang.annotation.") || !visited.add(n)) {
                continue;
            }
            if (testable(a.annotationType().getAnnotations(), visited, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    /** May item {@code b} follow {@code a} in the same request (same method only as ascending invocations)? */
    private static boolean conflicts(List<Item> part, Item b) {
        boolean seen = false;
        for (Item a : part) {
            if (a.methodId.equals(b.methodId)) {
                seen = true;
            }
        }
        if (!seen) {
            return false;
        }
        Item prev = part.get(part.size() - 1);
        return !(prev.methodId.equals(b.methodId) && prev.iteration > 0 && b.iteration > prev.iteration);
    }

    /** Method ids in order, consecutive invocations of one method collapsed into one unit. */
    private static List<String> units(List<Item> items) {
        List<String> u = new ArrayList<>();
        for (Item it : items) {
            if (u.isEmpty() || !u.get(u.size() - 1).equals(it.methodId)) {
                u.add(it.methodId);
            }
        }
        return u;
    }

    @Override
    public void runSegment(int index, Class<?> cls, List<String> tests) throws Exception {
        List<Item> items = new ArrayList<>();
        for (String t : tests) {
            items.add(resolve(cls, t));
        }
        int size = items.size();
        int pos = 0;
        int part = 0;
        String prevReason = null;
        while (pos < size) {
            Item first = items.get(pos);
            if (first.problem != null) {
                Agent.segmentEvent(
                        events,
                        index,
                        part++,
                        cls.getName(),
                        "junit5",
                        Collections.singletonList(first.id),
                        size > 1 ? first.problemKind : null);
                events.test(first.id, "error", 0, null, first.problem);
                prevReason = first.problemKind;
                pos++;
                continue;
            }
            List<Item> cand = new ArrayList<>();
            cand.add(first);
            int limit = pos + 1;
            while (limit < size && items.get(limit).problem == null && !conflicts(cand, items.get(limit))) {
                cand.add(items.get(limit));
                limit++;
            }
            String endReason = limit < size
                    ? (items.get(limit).problem != null ? items.get(limit).problemKind : "repeated-test")
                    : null;
            List<String> want = units(cand);
            List<String> got = plannedUnits(cls, cand);
            if (!got.equals(want)) {
                endReason = methodOrder(cls.getName()) != null ? "fixed-order" : "framework-order";
                while (!got.equals(want) && want.size() > 1) {
                    int d = Math.max(1, Agent.firstDifference(got, want));
                    // keep the items of the first d units
                    List<Item> shorter = new ArrayList<>();
                    int u = 0;
                    String last = null;
                    for (Item it : cand) {
                        if (!it.methodId.equals(last)) {
                            u++;
                            last = it.methodId;
                        }
                        if (u > d) {
                            break;
                        }
                        shorter.add(it);
                    }
                    cand = shorter;
                    want = units(cand);
                    got = plannedUnits(cls, cand);
                }
            }
            boolean whole = pos == 0 && cand.size() == size;
            String split = whole ? null : (pos + cand.size() < size ? endReason : prevReason);
            List<String> ids = new ArrayList<>();
            for (Item it : cand) {
                ids.add(it.id);
            }
            Agent.segmentEvent(events, index, part++, cls.getName(), "junit5", ids, split);
            execute(cls, cand);
            prevReason = endReason;
            pos += cand.size();
        }
    }

    private LauncherDiscoveryRequest runRequest(Class<?> cls, List<Item> cand) throws Exception {
        Map<Method, Integer> ranks = new HashMap<>();
        List<DiscoverySelector> selectors = new ArrayList<>();
        int unit = -1;
        String last = null;
        for (Item it : cand) {
            if (!it.methodId.equals(last)) {
                unit++;
                last = it.methodId;
            }
            if (!ranks.containsKey(it.method)) {
                ranks.put(it.method, unit);
            }
            DiscoverySelector sel = DiscoverySelectors.selectMethod(cls, it.method);
            if (it.iteration > 0) {
                sel = (DiscoverySelector) SELECT_ITERATION.invoke(null, sel, new int[] {it.iteration - 1});
            }
            selectors.add(sel);
        }
        RequestedOrder.set(ranks);
        Map<String, String> config = new LinkedHashMap<>(ctx.config());
        config.put(METHOD_ORDER_PARAM, RequestedOrder.class.getName());
        config.put(PARALLEL_PARAM, "false");
        return request(selectors, config);
    }

    /** The order the framework would run {@code cand} in: method ids in test plan order. */
    private List<String> plannedUnits(Class<?> cls, List<Item> cand) throws Exception {
        TestPlan plan = launcher.discover(runRequest(cls, cand));
        List<String> out = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            collectMethods(plan, root, cls.getName(), out);
        }
        return out;
    }

    private void collectMethods(TestPlan plan, TestIdentifier ti, String cls, List<String> out) {
        TestSource src = source(ti);
        if (src instanceof MethodSource) {
            MethodSource ms = (MethodSource) src;
            if (ms.getClassName().equals(cls)) {
                out.add(methodId(ms));
            }
            return;
        }
        for (TestIdentifier c : plan.getChildren(ti)) {
            collectMethods(plan, c, cls, out);
        }
    }

    private void execute(Class<?> cls, List<Item> cand) throws Exception {
        Listener l = new Listener();
        try {
            launcher.execute(runRequest(cls, cand), l);
        } catch (RuntimeException | LinkageError e) {
            // the launcher itself failed: the tests it did not report are errors with this cause
            System.err.println("odrust-agent: JUnit Platform failed running " + cls.getName() + ": " + e);
            if (l.classOutcome == null) {
                l.classFailure = e;
                l.classFailureMessage = "JUnit Platform failed: " + e;
                l.classOutcome = "error";
            }
        }
        l.finish(cand);
    }

    /** Turns launcher callbacks into events, one {@code test} event per test. */
    private final class Listener implements TestExecutionListener {
        private volatile TestPlan plan;
        private final Map<String, Long> started = new HashMap<>();
        private final Set<String> reported = Collections.synchronizedSet(new LinkedHashSet<String>());
        private final Map<TestIdentifier, String> ids =
                Collections.synchronizedMap(new IdentityHashMap<TestIdentifier, String>());
        private volatile Throwable classFailure;
        private volatile String classFailureMessage;
        private volatile String classOutcome;

        @Override
        public void testPlanExecutionStarted(TestPlan testPlan) {
            this.plan = testPlan;
        }

        private String idOf(TestIdentifier ti) {
            String cached = ids.get(ti);
            if (cached != null) {
                return cached;
            }
            StringBuilder suffix = new StringBuilder();
            TestIdentifier cur = ti;
            String base = null;
            while (cur != null) {
                List<UniqueId.Segment> segs = UniqueId.parse(cur.getUniqueId()).getSegments();
                UniqueId.Segment lastSeg = segs.get(segs.size() - 1);
                if (DYNAMIC_SEGMENTS.contains(lastSeg.getType())) {
                    String v = lastSeg.getValue();
                    suffix.insert(0, "[" + (v.startsWith("#") ? v.substring(1) : v) + "]");
                } else {
                    TestSource src = source(cur);
                    if (src instanceof MethodSource) {
                        MethodSource ms = (MethodSource) src;
                        base = methodId(ms);
                    }
                    break;
                }
                TestPlan p = plan;
                Optional<TestIdentifier> parent = p == null ? Optional.<TestIdentifier>empty() : p.getParent(cur);
                cur = parent.isPresent() ? parent.get() : null;
            }
            String id = base != null ? base + suffix : ti.getLegacyReportingName() + suffix;
            ids.put(ti, id);
            return id;
        }

        private boolean isClassLevel(TestIdentifier ti) {
            TestSource src = source(ti);
            return !(src instanceof MethodSource);
        }

        @Override
        public void executionStarted(TestIdentifier ti) {
            if (!ti.isTest()) {
                return;
            }
            synchronized (started) {
                started.put(ti.getUniqueId(), System.nanoTime());
            }
            events.testStarted(idOf(ti));
        }

        private long elapsed(TestIdentifier ti) {
            Long t0;
            synchronized (started) {
                t0 = started.remove(ti.getUniqueId());
            }
            return t0 == null ? 0 : (System.nanoTime() - t0) / 1_000_000L;
        }

        @Override
        public void executionSkipped(TestIdentifier ti, String reason) {
            if (ti.isTest() || !isClassLevel(ti)) {
                report(idOf(ti), "skipped", 0, null, reason);
            } else if (classOutcome == null) {
                classOutcome = "skipped";
                classFailureMessage = reason;
            }
        }

        @Override
        public void executionFinished(TestIdentifier ti, TestExecutionResult result) {
            Optional<Throwable> ot = result.getThrowable();
            Throwable t = ot.isPresent() ? ot.get() : null;
            if (ti.isTest()) {
                long ms = elapsed(ti);
                report(idOf(ti), outcome(result.getStatus(), t), ms, t, null);
                return;
            }
            if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                return;
            }
            if (!isClassLevel(ti)) {
                // a dynamic container (@ParameterizedTest, @TestFactory) failed or was aborted itself
                report(idOf(ti), outcome(result.getStatus(), t), 0, t, null);
                return;
            }
            String outcome = result.getStatus() == TestExecutionResult.Status.ABORTED ? "skipped" : "error";
            TestSource src = source(ti);
            String name = src instanceof ClassSource ? ((ClassSource) src).getClassName() : ti.getDisplayName();
            events.write(Json.event("class-failure")
                    .put("class", name)
                    .put("message", t == null ? null : t.getMessage())
                    .put("exception", t == null ? null : t.getClass().getName())
                    .put("trace", t == null ? null : EventWriter.trace(t))
                    .put("outcome", outcome));
            if (classFailure == null && !"skipped".equals(classOutcome)) {
                classFailure = t;
                classFailureMessage = t == null ? null : t.getMessage();
                classOutcome = outcome;
            }
        }

        private String outcome(TestExecutionResult.Status s, Throwable t) {
            switch (s) {
                case SUCCESSFUL:
                    return "pass";
                case ABORTED:
                    return "skipped";
                default:
                    return t instanceof AssertionError ? "fail" : "error";
            }
        }

        private void report(String id, String outcome, long ms, Throwable t, String msg) {
            reported.add(id);
            events.test(id, outcome, ms, t, msg);
        }

        void finish(List<Item> cand) {
            List<String> done;
            synchronized (reported) {
                done = new ArrayList<>(reported);
            }
            for (Item it : cand) {
                boolean ok = done.contains(it.id);
                if (!ok && it.iteration == 0) {
                    for (String r : done) {
                        if (r.startsWith(it.id + "[")) {
                            ok = true;
                            break;
                        }
                    }
                }
                if (ok) {
                    continue;
                }
                if (classOutcome != null) {
                    report(it.id, classOutcome, 0, classFailure, classFailureMessage);
                } else {
                    report(
                            it.id,
                            "error",
                            0,
                            null,
                            "JUnit did not run " + it.id
                                    + (it.iteration > 0
                                            ? " (no such invocation?)"
                                            : " (not reported by the JUnit Platform)"));
                }
            }
        }
    }
}
