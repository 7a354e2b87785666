package io.github.odrust.agent.samples;

public class SampleNotATest {
    public void helper() {}
}
