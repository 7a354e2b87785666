package io.github.odrust.agent.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class SampleJ5Outcomes {
    @Test
    void passes() {}

    @Test
    void fails() {
        assertEquals(1, 2, "snowman \u2603 and \uD83D\uDE00");
    }

    @Test
    void errors() {
        throw new IllegalStateException("bad state");
    }

    @Disabled("not today")
    @Test
    void disabled() {}

    @Test
    void assumes() {
        Assumptions.assumeTrue(false, "no");
    }
}
