package io.github.odrust.agent.samples;

import org.junit.BeforeClass;
import org.junit.Test;

public class SampleJ4Other {
    @BeforeClass
    public static void setUpClass() {
        SampleLog.count("J4Other.beforeClass");
    }

    @Test
    public void x() {
        SampleLog.count("J4Other.x");
    }

    @Test
    public void y() {
        SampleLog.count("J4Other.y");
    }
}
