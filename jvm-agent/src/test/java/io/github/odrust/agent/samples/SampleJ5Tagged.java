package io.github.odrust.agent.samples;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Tagged Jupiter tests for Surefire's groups/excludedGroups. */
@Tag("unit")
public class SampleJ5Tagged {
    @Test
    @Tag("fast")
    void fast() {}

    @Test
    @Tag("slow")
    void slow() {}

    @Test
    void plain() {}
}
