package io.github.odrust.agent.samples;

import junit.framework.TestCase;

/** A JUnit 3 test case: run through the JUnit 4 API, as Surefire's JUnit 4 provider does. */
public class SampleJ3Case extends TestCase {
    public void testA() {
        SampleLog.LOG.add("J3.testA");
    }

    public void testB() {
        SampleLog.LOG.add("J3.testB");
    }

    public void testC() {
        SampleLog.LOG.add("J3.testC");
    }
}
