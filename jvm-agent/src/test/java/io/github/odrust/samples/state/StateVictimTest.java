package io.github.odrust.samples.state;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class StateVictimTest {
    /** Fails after the polluter, because of RATES only. */
    @Test
    public void expectsNoRates() {
        assertTrue("rates: " + StateHolder.RATES, StateHolder.RATES.isEmpty());
    }

    /** Fails after the polluter, because of the registry's inner map and the enum. */
    @Test
    public void expectsIdleRegistry() {
        assertEquals(0, StateHolder.Registry.getInstance().jobCount());
        assertEquals(StateHolder.Mode.SLOW, StateHolder.mode);
    }
}
