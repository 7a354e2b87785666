package io.github.odrust.agent.samples;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class SampleJ5Nested {
    @BeforeAll
    static void setUpClass() {
        SampleLog.count("J5Nested.beforeAll");
    }

    @Test
    void outer() {
        SampleLog.count("J5Nested.outer");
    }

    @Nested
    class Inner {
        @Test
        void inner1() {
            SampleLog.count("J5Nested.Inner.inner1");
        }

        @Test
        void inner2() {
            SampleLog.count("J5Nested.Inner.inner2");
        }
    }
}
