package io.github.odrust.agent.samples;

import junit.extensions.TestSetup;
import junit.framework.Test;
import junit.framework.TestCase;
import junit.framework.TestSuite;

/** A suite whose decorator's setUp throws around one test (named with its place: another copy is bare). */
public class SampleJ3BrokenSetup extends TestCase {
    public static Test suite() {
        TestSuite root = new TestSuite();
        root.addTest(new TestSetup(new SampleJ3BrokenSetup("testA")) {
            @Override
            protected void setUp() {
                throw new IllegalStateException("setUp broke");
            }
        });
        root.addTest(new SampleJ3BrokenSetup("testB"));
        root.addTest(new SampleJ3BrokenSetup("testA"));
        return root;
    }

    public SampleJ3BrokenSetup(String name) {
        super(name);
    }

    public void testA() {
        SampleLog.LOG.add("J3Broken.testA");
    }

    public void testB() {
        SampleLog.LOG.add("J3Broken.testB");
    }
}
