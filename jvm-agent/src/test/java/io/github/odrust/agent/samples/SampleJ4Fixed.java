package io.github.odrust.agent.samples;

import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class SampleJ4Fixed {
    @Test
    public void a1() {
        SampleLog.count("J4Fixed.a1");
    }

    @Test
    public void b2() {
        SampleLog.count("J4Fixed.b2");
    }

    @Test
    public void c3() {
        SampleLog.count("J4Fixed.c3");
    }
}
