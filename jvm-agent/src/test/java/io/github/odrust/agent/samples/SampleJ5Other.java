package io.github.odrust.agent.samples;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

class SampleJ5Other {
    @BeforeAll
    static void setUpClass() {
        SampleLog.count("J5Other.beforeAll");
    }

    @Test
    void x(TestInfo info) {
        SampleLog.count("J5Other.x");
    }

    @Test
    void y() {
        SampleLog.count("J5Other.y");
    }
}
