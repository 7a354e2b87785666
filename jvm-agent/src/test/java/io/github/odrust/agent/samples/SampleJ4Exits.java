package io.github.odrust.agent.samples;

import org.junit.Test;

public class SampleJ4Exits {
    @Test
    public void exits() {
        System.exit(7);
    }
}
