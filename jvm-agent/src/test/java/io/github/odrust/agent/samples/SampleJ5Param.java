package io.github.odrust.agent.samples;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SampleJ5Param {
    @ParameterizedTest
    @ValueSource(ints = {10, 20, 30})
    void p(int v) {
        SampleLog.count("J5Param.p" + v);
    }

    @RepeatedTest(2)
    void r() {
        SampleLog.count("J5Param.r");
    }

    @Test
    void plain() {
        SampleLog.count("J5Param.plain");
    }

    @TestFactory
    Stream<DynamicTest> f() {
        return Arrays.asList("u", "v").stream()
                .map(s -> DynamicTest.dynamicTest(s, () -> SampleLog.count("J5Param.f" + s)));
    }
}
