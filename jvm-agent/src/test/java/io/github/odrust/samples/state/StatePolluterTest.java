package io.github.odrust.samples.state;

import org.junit.Test;

public class StatePolluterTest {
    @Test
    public void pollutes() {
        StateHolder.pollute();
    }
}
