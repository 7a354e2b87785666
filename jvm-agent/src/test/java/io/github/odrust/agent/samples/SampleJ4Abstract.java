package io.github.odrust.agent.samples;

import org.junit.Test;

public abstract class SampleJ4Abstract {
    @Test
    public void inherited() {
        SampleLog.count("J4Abstract.inherited");
    }
}
