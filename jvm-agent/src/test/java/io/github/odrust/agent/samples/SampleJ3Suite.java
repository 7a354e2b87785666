package io.github.odrust.agent.samples;

import junit.extensions.TestSetup;
import junit.framework.JUnit4TestAdapter;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestSuite;

/**
 * A JUnit 3 class whose {@code suite()} builds its tests: its own tests, the same inner test class
 * under two nested suites (names repeat, as in BulkTest-style collection tests), a TestSetup
 * decorator around one of them, and a JUnit 4 class through an adapter.
 */
public class SampleJ3Suite extends TestCase {
    public static int suiteBuilt;

    public static Test suite() {
        suiteBuilt++;
        TestSuite root = new TestSuite(SampleJ3Suite.class.getName());
        root.addTestSuite(SampleJ3Suite.class);
        TestSuite keys = new TestSuite("keys");
        keys.addTest(new Inner("testSize", "keys"));
        keys.addTest(new Inner("testEmpty", "keys"));
        root.addTest(keys);
        TestSuite values = new TestSuite("values");
        values.addTest(new Inner("testSize", "values"));
        values.addTest(new Inner("testEmpty", "values"));
        root.addTest(new TestSetup(values) {
            @Override
            protected void setUp() {
                SampleLog.LOG.add("values.setUp");
            }

            @Override
            protected void tearDown() {
                SampleLog.LOG.add("values.tearDown");
            }
        });
        root.addTest(new JUnit4TestAdapter(SampleJ4Other.class));
        return root;
    }

    public void testOwn() {
        SampleLog.LOG.add("J3Suite.testOwn");
    }

    public void testFails() {
        SampleLog.LOG.add("J3Suite.testFails");
        fail("expected to fail");
    }

    /** A test class used under several suites. */
    public static class Inner extends TestCase {
        private final String where;

        public Inner(String name, String where) {
            super(name);
            this.where = where;
        }

        /** Runs of this instance: a test that runs again runs on a new instance (the log says if not). */
        private int runs;

        public void testSize() {
            SampleLog.LOG.add(where + ".testSize" + (++runs > 1 ? " on the same instance again" : ""));
        }

        public void testEmpty() {
            SampleLog.LOG.add(where + ".testEmpty");
        }
    }
}
