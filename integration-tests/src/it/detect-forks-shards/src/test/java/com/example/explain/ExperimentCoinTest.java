package com.example.explain;

import static org.junit.Assert.assertFalse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Test;

/**
 * Non-order-dependent flakiness that is the same in every run of the same plan: fails in the
 * experiments whose number is a multiple of 3 (odrust's plan file, on the JVM's command line,
 * is under detect/exp-N/), whatever the order, so that runs with 1 and 2 forks can be compared.
 */
public class ExperimentCoinTest {
    @Test
    public void flips() {
        Matcher m = Pattern.compile("exp-(\\d+)").matcher(System.getProperty("sun.java.command", ""));
        assertFalse("tails in this experiment", m.find() && Integer.parseInt(m.group(1)) % 3 == 0);
    }
}
