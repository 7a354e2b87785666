package com.example.suites;

import junit.extensions.TestSetup;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestSuite;

/**
 * BulkTest-style: one test class ({@link Checks}) under two nested suites, so its test names
 * repeat; each nested suite is wrapped in a TestSetup whose tearDown clears the registry. A check
 * that registers pollutes the check that expects an empty registry only inside the same suite: the
 * decorator between two suites cleans up.
 */
public class CollectionSuiteTest extends TestCase {
    public static Test suite() {
        TestSuite root = new TestSuite("collections");
        root.addTest(wrapped("keys"));
        root.addTest(wrapped("values"));
        return root;
    }

    private static Test wrapped(String view) {
        TestSuite s = new TestSuite(view);
        s.addTest(new Checks("testStartsEmpty", view));
        s.addTest(new Checks("testRegisters", view));
        s.addTest(new Checks("testNamesItsView", view));
        return new TestSetup(s) {
            @Override
            protected void tearDown() {
                Registry.clear();
            }
        };
    }

    /** The checks each view runs. */
    public static class Checks extends TestCase {
        private final String view;

        public Checks(String name, String view) {
            super(name);
            this.view = view;
        }

        public void testStartsEmpty() {
            assertEquals("registry of " + view, 0, Registry.entries().size());
        }

        public void testRegisters() {
            Registry.register(view);
            assertTrue(Registry.entries().contains(view));
        }

        public void testNamesItsView() {
            assertTrue(view.equals("keys") || view.equals("values"));
        }
    }
}
