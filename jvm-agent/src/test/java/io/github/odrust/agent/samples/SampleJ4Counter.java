package io.github.odrust.agent.samples;

import org.junit.BeforeClass;
import org.junit.Test;

public class SampleJ4Counter {
    @BeforeClass
    public static void setUpClass() {
        SampleLog.count("J4Counter.beforeClass");
    }

    @Test
    public void a() {
        SampleLog.count("J4Counter.a");
    }

    @Test
    public void b() {
        SampleLog.count("J4Counter.b");
    }

    @Test
    public void c() {
        SampleLog.count("J4Counter.c");
    }
}
