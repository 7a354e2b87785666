package io.github.odrust.agent.samples;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.MethodName.class)
class SampleJ5Ordered {
    @Test
    void a1() {
        SampleLog.count("J5Ordered.a1");
    }

    @Test
    void b2() {
        SampleLog.count("J5Ordered.b2");
    }

    @Test
    void c3() {
        SampleLog.count("J5Ordered.c3");
    }
}
