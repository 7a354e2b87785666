package io.github.odrust.agent.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

class SampleJ5Overloaded {
    @Test
    void same() {
        SampleLog.count("J5Overloaded.same()");
    }

    @Test
    void same(TestInfo info) {
        SampleLog.count("J5Overloaded.same(TestInfo)");
    }
}
