/**
 * The files the plugin writes for a forked test JVM, one class per format holding its version, its
 * writer (used by the Maven plugin, which depends on this jar) and its parser (used in the test JVM):
 * {@link io.github.odrust.agent.format.PlanFile} (the plan file of {@link io.github.odrust.agent.Main})
 * and {@link io.github.odrust.agent.format.AgentOptions} (the {@code -javaagent} options file).
 * Dependency-free, Java 8; docs/protocol.md.
 */
package io.github.odrust.agent.format;
