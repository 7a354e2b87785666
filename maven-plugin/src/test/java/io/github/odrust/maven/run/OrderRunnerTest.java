package io.github.odrust.maven.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class OrderRunnerTest {
    @Test
    void consumedCountsRequestedEntriesInOrder() {
        assertEquals(2, OrderRunner.consumed(List.of("A#a", "A#b", "B#c"), List.of("A#a", "A#b")));
        assertEquals(0, OrderRunner.consumed(List.of("A#a"), List.of()));
        assertEquals(3, OrderRunner.consumed(List.of("A#a", "A#a", "B#c"), List.of("A#a", "A#a", "B#c")));
    }

    @Test
    void aDynamicContainerConsumesItsInvocations() {
        assertEquals(2, OrderRunner.consumed(List.of("A#p", "A#q", "B#c"), List.of("A#p[1]", "A#p[2]", "A#q")));
        assertEquals(1, OrderRunner.consumed(List.of("A#p[2]", "A#q"), List.of("A#p[2]")));
    }

    @Test
    void stopsAtTheFirstTestThatWasNotRequestedThere() {
        assertEquals(1, OrderRunner.consumed(List.of("A#a", "A#b"), List.of("A#a", "A#z", "A#b")));
    }
}
