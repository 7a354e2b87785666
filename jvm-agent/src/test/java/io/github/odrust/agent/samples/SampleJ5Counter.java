package io.github.odrust.agent.samples;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SampleJ5Counter {
    @BeforeAll
    static void setUpClass() {
        SampleLog.count("J5Counter.beforeAll");
    }

    @Test
    void a() {
        SampleLog.count("J5Counter.a");
    }

    @Test
    void b() {
        SampleLog.count("J5Counter.b");
    }

    @Test
    void c() {
        SampleLog.count("J5Counter.c");
    }
}
