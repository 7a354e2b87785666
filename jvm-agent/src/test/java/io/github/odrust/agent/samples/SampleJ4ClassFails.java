package io.github.odrust.agent.samples;

import org.junit.BeforeClass;
import org.junit.Test;

public class SampleJ4ClassFails {
    @BeforeClass
    public static void setUpClass() {
        SampleLog.count("J4ClassFails.beforeClass");
        throw new IllegalStateException("boom in @BeforeClass");
    }

    @Test
    public void p() {
        SampleLog.count("J4ClassFails.p");
    }

    @Test
    public void q() {
        SampleLog.count("J4ClassFails.q");
    }
}
