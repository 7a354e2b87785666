package io.github.odrust.samples.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The JUnit 5 form of {@link StateConstructorVictimTest}: a field initializer reads the state
 * while JUnit 5 builds the instance, before the test-start event; restoring the state at that
 * event is too late for it.
 */
class StateJ5ConstructorVictimTest {
    private final String labelAtConstruction = StateHolder.label;

    @Test
    void changesLabel() {
        StateHolder.label = "changed";
    }

    @Test
    void usesPlainLabel() {
        assertEquals("plain", labelAtConstruction);
    }
}
