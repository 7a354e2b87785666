package io.github.odrust.agent.samples;

import org.junit.jupiter.api.Test;

class SampleJ5OutOfMemory {
    @Test
    void exhaustsTheHeap() {
        // JUnit rethrows an OutOfMemoryError instead of reporting a failure, as for a real one.
        throw new OutOfMemoryError("Java heap space (simulated)");
    }
}
