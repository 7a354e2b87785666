package io.github.odrust.agent.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SampleJ5Overloaded {
    @Test
    void same() {
        SampleLog.count("J5Overloaded.same()");
    }

    @Test
    void same(TestInfo info) {
        SampleLog.count("J5Overloaded.same(TestInfo)");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void same(int v) {
        SampleLog.count("J5Overloaded.same(int)" + v);
    }
}
