package io.github.odrust.samples.state;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/**
 * A victim that fails while JUnit 4 builds its instance, before the test-start event: its field
 * initializer reads polluted state (CaptureIT, the {@code instance} and {@code class} points).
 */
public class StateConstructorVictimTest {
    private final int ratesAtConstruction = checkedRates();

    private static int checkedRates() {
        if (!StateHolder.RATES.isEmpty()) {
            throw new IllegalStateException("rates at construction: " + StateHolder.RATES);
        }
        return 0;
    }

    /** Pollutes RATES: the next instance of this class cannot be built. */
    @Test
    public void pollutesRates() {
        StateHolder.RATES.put("usd", 1.1);
    }

    @Test
    public void usesCleanRates() {
        assertEquals(0, ratesAtConstruction);
    }
}
