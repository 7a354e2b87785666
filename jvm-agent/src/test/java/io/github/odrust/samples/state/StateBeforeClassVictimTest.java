package io.github.odrust.samples.state;

import static org.junit.Assert.assertEquals;

import org.junit.BeforeClass;
import org.junit.Test;

/** A victim whose {@code @BeforeClass} reads polluted state: it fails before any test starts. */
public class StateBeforeClassVictimTest {
    private static StateHolder.Mode mode;

    @BeforeClass
    public static void readMode() {
        mode = StateHolder.mode;
        assertEquals(StateHolder.Mode.SLOW, mode);
    }

    @Test
    public void usesSlowMode() {
        assertEquals(StateHolder.Mode.SLOW, mode);
    }
}
