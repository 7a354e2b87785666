/**
 * What every goal stands on: the module under test and its resolved settings ({@code TestModule}),
 * and the words of console lines ({@code Words}). The mojos themselves are in the root package
 * {@code io.github.odrust.maven}, and only they are.
 */
package io.github.odrust.maven.core;
