package io.github.odrust.agent.runner;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import junit.extensions.TestDecorator;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestResult;
import junit.framework.TestSuite;
import org.junit.runner.Describable;
import org.junit.runner.Description;

/**
 * JUnit 3 classes whose {@code suite()} method builds their tests at run time. JUnit 4's runner
 * for them ({@code SuiteMethod}) can neither filter inside nested suites nor sort, and it names a
 * test by its own class and name, which repeat when one test class is added under several suites
 * ({@code BulkTest}-style collections tests). Here the suite is built once per class and loader,
 * each test gets an id unique in its class, and any subset runs in any order through a copy of
 * the tree that keeps the nested suites and decorators ({@code TestSetup}) around the tests it runs.
 *
 * <p>Ids: {@code Suite#name} when the test belongs to the suite class itself and its name is
 * unique; otherwise {@code Suite#name[where]}, where {@code where} is the path of the nested suites'
 * names (a class name written short) and the test's own class when it is not the suite class,
 * joined by {@code /}, and {@code (2)}, {@code (3)} for repeats of the same path.
 */
final class Junit3Suites {
    private Junit3Suites() {}

    /** One test of a suite: its id, the object JUnit 3 runs, and the suites and decorators around it. */
    static final class Leaf {
        final String id;
        final Test test;
        /** From the root to the direct parent: {@link TestSuite}s and {@link TestDecorator}s. */
        final List<Test> ancestors;

        Leaf(String id, Test test, List<Test> ancestors) {
            this.id = id;
            this.test = test;
            this.ancestors = ancestors;
        }
    }

    /** The suite one class's {@code suite()} built, with its tests in run order. */
    static final class Tree {
        final Class<?> suiteClass;
        final Test root;
        final List<Leaf> leaves;
        final Map<String, Leaf> byId = new HashMap<>();
        /** Per suite or decorator: its tests in run order (for "the whole node runs as it is"). */
        final Map<Test, List<Leaf>> under = new IdentityHashMap<>();
        /** Tests that are not JUnit 3 test cases (one id each; a JUnit 4 adapter with several tests). */
        int opaque;
        /** The test instances of this tree that ran in this JVM. */
        final java.util.Set<Test> ran = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

        Tree(Class<?> suiteClass, Test root, List<Leaf> leaves) {
            this.suiteClass = suiteClass;
            this.root = root;
            this.leaves = leaves;
            for (Leaf l : leaves) {
                byId.put(l.id, l);
                for (Test a : l.ancestors) {
                    under.computeIfAbsent(a, k -> new ArrayList<>()).add(l);
                }
            }
        }

        List<String> ids() {
            List<String> ids = new ArrayList<>();
            for (Leaf l : leaves) {
                ids.add(l.id);
            }
            return ids;
        }
    }

    /**
     * Whether JUnit 4 runs {@code cls} through its {@code suite()} method (JUnit's own builder
     * order: {@code @Ignore} and {@code @RunWith} come first).
     */
    static boolean usesSuiteMethod(Class<?> cls) {
        if (cls.getAnnotation(org.junit.Ignore.class) != null
                || cls.getAnnotation(org.junit.runner.RunWith.class) != null) {
            return false;
        }
        try {
            cls.getMethod("suite");
            return true;
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }

    /** Calls {@code cls.suite()} (as JUnit's {@code SuiteMethod} does) and names its tests. */
    static Tree build(Class<?> cls) throws Throwable {
        Test root = org.junit.internal.runners.SuiteMethod.testFromSuiteMethod(cls);
        return tree(cls, root);
    }

    static Tree tree(Class<?> cls, Test root) {
        List<Raw> raws = new ArrayList<>();
        int[] opaque = {0};
        walk(root, new ArrayList<>(), new ArrayList<>(), raws, opaque, true);
        String own = cls.getName();
        // A name keeps the plain form only when it is the suite class's own test, once, and a Java
        // identifier; otherwise every test of that name is named by its place, so that no id is
        // another's "invocation" (C#m beside C#m[..]) for the engine.
        Map<String, Integer> byName = new HashMap<>();
        java.util.Set<String> placed = new java.util.HashSet<>();
        for (Raw r : raws) {
            byName.merge(r.name, 1, Integer::sum);
            if (!r.className.equals(own) || !identifier(r.name).equals(r.name)) {
                placed.add(r.name);
            }
        }
        java.util.Set<String> used = new java.util.HashSet<>();
        List<Leaf> leaves = new ArrayList<>();
        for (Raw r : raws) {
            String id;
            if (byName.get(r.name) == 1 && !placed.contains(r.name)) {
                id = own + "#" + r.name;
            } else {
                List<String> where = new ArrayList<>(r.path);
                // a class of the suite's package written short, any other in full
                String mine = packageOf(r.className).equals(packageOf(own)) ? shortName(r.className) : r.className;
                if ((!r.className.equals(own) || where.isEmpty())
                        && (where.isEmpty() || !where.get(where.size() - 1).equals(mine))) {
                    where.add(mine);
                }
                String method = identifier(r.name);
                if (!method.equals(r.name)) {
                    where.add("name=" + r.name.replace(']', ')'));
                }
                String base = own + "#" + method + "[" + String.join("/", where);
                id = base + "]";
                for (int n = 2; used.contains(id); n++) {
                    id = base + " (" + n + ")]";
                }
            }
            used.add(id);
            leaves.add(new Leaf(id, r.test, r.ancestors));
        }
        Tree t = new Tree(cls, root, leaves);
        t.opaque = opaque[0];
        return t;
    }

    private static final class Raw {
        final Test test;
        final String className;
        final String name;
        final List<String> path;
        final List<Test> ancestors;

        Raw(Test test, String className, String name, List<String> path, List<Test> ancestors) {
            this.test = test;
            this.className = className;
            this.name = name;
            this.path = path;
            this.ancestors = ancestors;
        }
    }

    private static void walk(
            Test t, List<Test> ancestors, List<String> path, List<Raw> out, int[] opaque, boolean root) {
        if (t instanceof TestCase) {
            TestCase tc = (TestCase) t;
            String name = tc.getName() == null ? "warning" : tc.getName();
            out.add(new Raw(t, t.getClass().getName(), name, path, ancestors));
        } else if (t instanceof TestSuite) {
            TestSuite s = (TestSuite) t;
            List<Test> inner = with(ancestors, t);
            List<String> innerPath = path;
            if (!root && s.getName() != null && !s.getName().isEmpty()) {
                innerPath = new ArrayList<>(path);
                innerPath.add(shortName(s.getName()));
            }
            for (int i = 0; i < s.testCount(); i++) {
                walk(s.testAt(i), inner, innerPath, out, opaque, false);
            }
        } else if (t instanceof TestDecorator) {
            walk(((TestDecorator) t).getTest(), with(ancestors, t), path, out, opaque, root);
        } else {
            opaque[0]++;
            String className = t.getClass().getName();
            String name = simple(className);
            if (t instanceof Describable) {
                Description d = ((Describable) t).getDescription();
                if (d.isTest() && d.getMethodName() != null) {
                    className = d.getClassName();
                    name = d.getMethodName();
                } else if (d.getTestClass() != null) {
                    className = d.getClassName();
                    name = simple(className);
                }
            }
            out.add(new Raw(t, className, name, path, ancestors));
        }
    }

    private static List<Test> with(List<Test> list, Test t) {
        List<Test> out = new ArrayList<>(list);
        out.add(t);
        return Collections.unmodifiableList(out);
    }

    /** {@code name} if it is a Java identifier, else with every other character {@code _} (and {@code _} first if needed). */
    static String identifier(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            b.append(
                    i == 0
                            ? (Character.isJavaIdentifierStart(c)
                                    ? c
                                    : Character.isJavaIdentifierPart(c) ? "_" + c : "_")
                            : (Character.isJavaIdentifierPart(c) ? String.valueOf(c) : "_"));
        }
        return b.length() == 0 ? "_" : b.toString();
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** {@code a.b.C$D} → {@code C$D}; a suite name that is not a class name stays as it is. */
    static String shortName(String name) {
        String n = name.replace('[', '(').replace(']', ')');
        return n.matches("[\\w$]+(\\.[\\w$]+)+") ? n.substring(n.lastIndexOf('.') + 1) : n;
    }

    private static String simple(String className) {
        String s = className.substring(className.lastIndexOf('.') + 1);
        return s.isEmpty() ? "test" : s;
    }

    // ------------------------------------------------------------ run

    /**
     * A test that runs exactly {@code order} (leaves of {@code tree}), in that order: each suite
     * or decorator that runs all of its tests in its own order is used as it is; otherwise a suite
     * is copied (same name) with only the requested tests, and a decorator runs around the copy
     * of its content, so a {@code TestSetup}'s setUp/tearDown still surround its tests.
     */
    static Test prune(Tree tree, List<Leaf> order) {
        return node(tree, tree.root, order, 0);
    }

    private static Test node(Tree tree, Test node, List<Leaf> order, int depth) {
        List<Leaf> all = tree.under.get(node);
        if (all == null) { // a test (a test repeated in a row runs as often as it is asked)
            if (order.size() == 1) {
                return wrap(order.get(0));
            }
            TestSuite repeated = new TestSuite();
            for (Leaf l : order) {
                repeated.addTest(wrap(l));
            }
            return repeated;
        }
        if (all.equals(order) && tree.opaque == 0) {
            return node; // the whole node, as the suite built it
        }
        List<Test> children = new ArrayList<>();
        int i = 0;
        while (i < order.size()) {
            Test child = childOf(order.get(i), depth);
            int j = i + 1;
            while (j < order.size() && childOf(order.get(j), depth) == child) {
                j++;
            }
            children.add(node(tree, child, order.subList(i, j), depth + 1));
            i = j;
        }
        if (node instanceof TestDecorator) {
            return new Around((TestDecorator) node, children.get(0));
        }
        if (node.getClass() != TestSuite.class && Within.TESTS != null) {
            return new Within((TestSuite) node, children); // a subclass's own run() and runTest() kept
        }
        TestSuite copy = new TestSuite(((TestSuite) node).getName());
        for (Test c : children) {
            copy.addTest(c);
        }
        return copy;
    }

    /** A JUnit 3 test case as it is; any other test inside {@link Opaque}, so its start and end are seen. */
    private static Test wrap(Leaf leaf) {
        return leaf.test instanceof TestCase ? leaf.test : new Opaque(leaf);
    }

    /** Hears which test of a suite runs: test cases by identity, other tests through {@link Opaque}. */
    interface Hearing {
        void opaqueStarted(Leaf leaf);

        void opaqueFinished(Leaf leaf);
    }

    /** The hearing of the run under way on this thread (a suite runs on the agent's thread). */
    static final ThreadLocal<Hearing> HEARING = new ThreadLocal<>();

    /** A test that is not a JUnit 3 test case (a JUnit 4 adapter): one odrust test, its failures its own. */
    static final class Opaque implements Test {
        private final Leaf leaf;

        Opaque(Leaf leaf) {
            this.leaf = leaf;
        }

        @Override
        public int countTestCases() {
            return leaf.test.countTestCases();
        }

        @Override
        public void run(TestResult result) {
            Hearing h = HEARING.get();
            if (h != null) {
                h.opaqueStarted(leaf);
            }
            try {
                leaf.test.run(result);
            } catch (RuntimeException | Error t) {
                result.addError(this, t); // this test's failure, not a pass
            } finally {
                if (h != null) {
                    h.opaqueFinished(leaf);
                }
            }
        }

        @Override
        public String toString() {
            return leaf.test.toString();
        }
    }

    /** The node under depth {@code depth} of {@code leaf}'s ancestors: the next ancestor or the test. */
    private static Test childOf(Leaf leaf, int depth) {
        return depth + 1 < leaf.ancestors.size() ? leaf.ancestors.get(depth + 1) : leaf.test;
    }

    /** A decorator run around another content (its own field swapped for the run, then restored). */
    static final class Around implements Test {
        private static final Field INNER = innerField();
        private final TestDecorator decorator;
        private final Test content;

        Around(TestDecorator decorator, Test content) {
            this.decorator = decorator;
            this.content = content;
        }

        private static Field innerField() {
            try {
                Field f = TestDecorator.class.getDeclaredField("fTest");
                f.setAccessible(true);
                return f;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        @Override
        public int countTestCases() {
            return content.countTestCases();
        }

        @Override
        public void run(TestResult result) {
            if (INNER == null) {
                // no such field in this JUnit: run the content without the decorator, and say so
                System.err.println("odrust-agent: cannot run "
                        + decorator.getClass().getName() + " around part of its tests; they run without it");
                content.run(result);
                return;
            }
            Object before;
            try {
                before = INNER.get(decorator);
                INNER.set(decorator, content);
            } catch (IllegalAccessException e) {
                content.run(result);
                return;
            }
            try {
                decorator.run(result);
            } finally {
                try {
                    INNER.set(decorator, before);
                } catch (IllegalAccessException e) {
                    // restored above or never set
                }
            }
        }

        @Override
        public String toString() {
            return decorator.toString();
        }
    }

    /** A {@code TestSuite} subclass run with only some of its tests (its test list swapped for the run, then restored). */
    static final class Within implements Test {
        static final Field TESTS = testsField();
        private final TestSuite suite;
        private final java.util.Vector<Test> content;

        Within(TestSuite suite, List<Test> content) {
            this.suite = suite;
            this.content = new java.util.Vector<>(content);
        }

        private static Field testsField() {
            try {
                Field f = TestSuite.class.getDeclaredField("fTests");
                f.setAccessible(true);
                return java.util.Vector.class.isAssignableFrom(f.getType()) ? f : null;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        @Override
        public int countTestCases() {
            int n = 0;
            for (Test t : content) {
                n += t.countTestCases();
            }
            return n;
        }

        @Override
        public void run(TestResult result) {
            Object before;
            try {
                before = TESTS.get(suite);
                TESTS.set(suite, content);
            } catch (IllegalAccessException e) {
                for (Test t : content) {
                    t.run(result);
                }
                return;
            }
            try {
                suite.run(result);
            } finally {
                try {
                    TESTS.set(suite, before);
                } catch (IllegalAccessException e) {
                    // set above, so settable
                }
            }
        }

        @Override
        public String toString() {
            return suite.toString();
        }
    }

    /** Leaves of {@code tree} named by {@code ids}, in order; null when an id is unknown. */
    static List<Leaf> leaves(Tree tree, List<String> ids) {
        List<Leaf> out = new ArrayList<>();
        for (String id : ids) {
            Leaf l = tree.byId.get(id);
            if (l == null) {
                return null;
            }
            out.add(l);
        }
        return out;
    }

    /** Per class (and so per class loader), the tree its {@code suite()} built: built once. */
    static final class Cache {
        private final Map<Class<?>, Tree> trees = new LinkedHashMap<>();

        Tree get(Class<?> cls) throws Throwable {
            Tree t = trees.get(cls);
            if (t == null) {
                t = build(cls);
                trees.put(cls, t);
            }
            return t;
        }

        /**
         * A tree whose tests have not run yet in this JVM for the tests {@code ids}: the cached one,
         * or the suite built again when one of them ran (a test runs again on a new instance, as
         * when the class runs again, not on the instance its first run left behind).
         */
        Tree fresh(Class<?> cls, List<String> ids) throws Throwable {
            Tree t = get(cls);
            for (String id : ids) {
                Leaf l = t.byId.get(id);
                if (l != null && t.ran.contains(l.test)) {
                    Tree again = build(cls);
                    if (!again.byId.keySet().equals(t.byId.keySet())) {
                        throw new IllegalStateException(cls.getName() + ".suite() built other tests the second time");
                    }
                    trees.put(cls, again);
                    return again;
                }
            }
            return t;
        }
    }
}
