package io.github.odrust.samples.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The JUnit 5 form of {@link StateConstructorVictimTest}: the constructor reads polluted state. */
class StateJ5ConstructorVictimTest {
    private final String labelAtConstruction;

    StateJ5ConstructorVictimTest() {
        if (!"plain".equals(StateHolder.label)) {
            throw new IllegalStateException("label at construction: " + StateHolder.label);
        }
        labelAtConstruction = StateHolder.label;
    }

    @Test
    void changesLabel() {
        StateHolder.label = "changed";
    }

    @Test
    void usesPlainLabel() {
        assertEquals("plain", labelAtConstruction);
    }
}
