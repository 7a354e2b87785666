package io.github.odrust.agent.samples;

import junit.extensions.TestSetup;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestResult;
import junit.framework.TestSuite;

/**
 * The corners of suites built at run time: one instance added at two places, a TestSuite subclass
 * whose run() does work of its own, a name that is both the suite class's own test and another
 * class's, a test that is not a test case and throws, and a name that is not an identifier.
 */
public class SampleJ3Odd extends TestCase {
    public static Test suite() {
        TestSuite root = new TestSuite();
        SampleJ3Odd shared = new SampleJ3Odd("testShared");
        root.addTest(new Logged("first", shared));
        root.addTest(new Logged("second", shared));
        TestSuite custom = new TestSuite("custom") {
            @Override
            public void run(TestResult result) {
                SampleLog.LOG.add("custom.run");
                super.run(result);
            }
        };
        custom.addTest(new SampleJ3Odd("testA"));
        custom.addTest(new SampleJ3Odd("testB"));
        root.addTest(custom);
        root.addTest(new SampleJ3Odd("testSame"));
        root.addTest(new SampleJ3Suite.Inner("testSize", "odd"));
        root.addTest(new Other("testSame"));
        root.addTest(new Test() {
            @Override
            public int countTestCases() {
                return 1;
            }

            @Override
            public void run(TestResult result) {
                throw new IllegalStateException("thrown out of run");
            }
        });
        root.addTest(new SampleJ3Odd("odd name"));
        return root;
    }

    public SampleJ3Odd(String name) {
        super(name);
    }

    public void testShared() {
        SampleLog.LOG.add("testShared");
    }

    public void testA() {
        SampleLog.LOG.add("testA");
    }

    public void testB() {
        SampleLog.LOG.add("testB");
    }

    public void testSame() {
        SampleLog.LOG.add("own.testSame");
    }

    /** A decorator that says where it runs. */
    static final class Logged extends TestSetup {
        private final String where;

        Logged(String where, Test test) {
            super(test);
            this.where = where;
        }

        @Override
        protected void setUp() {
            SampleLog.LOG.add(where + ".setUp");
        }
    }

    /** Another class with a test of the same name. */
    public static class Other extends TestCase {
        public Other(String name) {
            super(name);
        }

        public void testSame() {
            SampleLog.LOG.add("other.testSame");
        }
    }
}
