package io.github.odrust.agent.samples;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SampleJ5ClassFails {
    @BeforeAll
    static void setUpClass() {
        SampleLog.count("J5ClassFails.beforeAll");
        throw new IllegalStateException("boom in @BeforeAll");
    }

    @Test
    void p() {
        SampleLog.count("J5ClassFails.p");
    }

    @Test
    void q() {
        SampleLog.count("J5ClassFails.q");
    }
}
