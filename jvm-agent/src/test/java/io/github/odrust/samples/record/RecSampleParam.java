package io.github.odrust.samples.record;

import java.util.Arrays;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/** Its parameter factory runs when the runner is built, before the segment event: class-state. */
@RunWith(Parameterized.class)
public class RecSampleParam {
    @Parameterized.Parameters
    public static List<Object[]> params() {
        RecHolder.paramFactory++;
        return Arrays.asList(new Object[] {1}, new Object[] {2});
    }

    private final int p;

    public RecSampleParam(int p) {
        this.p = p;
    }

    @Test
    public void t() {
        if (p <= 0) {
            throw new AssertionError();
        }
    }
}
