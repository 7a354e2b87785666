package io.github.odrust.agent.samples;

import junit.framework.JUnit4TestAdapter;
import junit.framework.Test;

/** A suite() that is one JUnit 4 class through an adapter. */
public class SampleJ3Adapter {
    public static Test suite() {
        return new JUnit4TestAdapter(SampleJ4Other.class);
    }
}
