package io.github.odrust.agent.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A failed comparison's two values, in full, as the event's expected and actual. */
class ComparedTest {
    private static final String LONG_A = times("a,", 40) + "zeta";
    private static final String LONG_B = "zeta," + times("a,", 40);

    private static String times(String s, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(s);
        }
        return b.toString();
    }

    @Test
    void junit4ComparisonFailureGivesTheValuesItsMessageShortens() {
        org.junit.ComparisonFailure f = new org.junit.ComparisonFailure("m", LONG_A, LONG_B);
        assertArrayEquals(new String[] {LONG_A, LONG_B}, EventWriter.compared(f));
    }

    @Test
    void opentest4jValuesAreTheirStringRepresentations() {
        org.opentest4j.AssertionFailedError f = new org.opentest4j.AssertionFailedError("m", "b,a", 12);
        assertArrayEquals(new String[] {"b,a", "12"}, EventWriter.compared(f));
    }

    @Test
    void otherFailuresAndHugeValuesGiveNothing() {
        assertNull(EventWriter.compared(new AssertionError("expected true")));
        assertNull(EventWriter.compared(null));
        assertNull(EventWriter.compared(new org.opentest4j.AssertionFailedError("m")));
        String huge = times("x", EventWriter.COMPARED_LIMIT + 1);
        assertNull(EventWriter.compared(new org.junit.ComparisonFailure("m", huge, "y")));
    }
}
