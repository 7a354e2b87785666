package io.github.odrust.agent.samples;

import static org.junit.Assert.assertEquals;

import org.junit.Assume;
import org.junit.Ignore;
import org.junit.Test;

public class SampleJ4Outcomes {
    @Test
    public void passes() {}

    @Test
    public void fails() {
        assertEquals("quote\" backslash\\ tab\t", 1, 2);
    }

    @Test
    public void errors() {
        throw new IllegalStateException("bad state");
    }

    @Ignore("not today")
    @Test
    public void ignored() {}

    @Test
    public void assumes() {
        Assume.assumeTrue("no", false);
    }
}
