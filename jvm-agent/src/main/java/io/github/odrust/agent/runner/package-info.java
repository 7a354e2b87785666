/**
 * The test runner inside a forked test JVM: reads the plan file ({@link io.github.odrust.agent.format.PlanFile}),
 * discovers or runs tests through JUnit 4 ({@link io.github.odrust.agent.runner.Junit4Support}) or the
 * JUnit Platform ({@link io.github.odrust.agent.runner.junit5}), and writes one JSON event per line
 * ({@link io.github.odrust.agent.runner.EventWriter}); docs/protocol.md. Started by
 * {@link io.github.odrust.agent.Main}. When the JVM records (docs/dependence.md), the events also carry
 * what {@link io.github.odrust.agent.record} saw in each test and segment.
 */
package io.github.odrust.agent.runner;
