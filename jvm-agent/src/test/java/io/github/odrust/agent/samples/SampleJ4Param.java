package io.github.odrust.agent.samples;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class SampleJ4Param {
    @Parameters
    public static Collection<Object[]> data() {
        return Arrays.asList(new Object[] {1}, new Object[] {2});
    }

    private final int value;

    public SampleJ4Param(int value) {
        this.value = value;
    }

    @Test
    public void m() {
        SampleLog.count("J4Param.m" + value);
    }

    @Test
    public void n() {
        SampleLog.count("J4Param.n" + value);
    }
}
