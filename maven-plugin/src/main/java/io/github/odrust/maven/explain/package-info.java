/**
 * Explaining order-dependent tests found by detection (odrust:minimize): which test to explain,
 * checked against the recorded run. The experiments themselves (polluters, cleaners,
 * state-setters, flake rates) are planned by the engine and run by the detection loop of
 * {@link io.github.odrust.maven.detect}, which this package builds on.
 */
package io.github.odrust.maven.explain;
