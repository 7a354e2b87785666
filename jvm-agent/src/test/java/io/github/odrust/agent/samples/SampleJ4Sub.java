package io.github.odrust.agent.samples;

/** Has no @Test of its own: found through the abstract superclass, as Surefire does. */
public class SampleJ4Sub extends SampleJ4Abstract {}
