/**
 * The shared test JVM of {@code -Dodrust.isolation=classloader} (docs/isolation.md): one JVM runs
 * order after order, each in a fresh class loader over the test classpath (the project's classes
 * and its libraries loaded anew, the JDK shared), with the JDK state tests commonly touch
 * restored after each, and threads left running reported.
 */
package io.github.odrust.agent.serve;
