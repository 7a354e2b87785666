/**
 * {@code odrust:repair} for order-dependent tests: verified patches from cleaners, state-setters
 * and reset methods (docs/repair.md). The engine plans ({@code repair_next}, {@code reset_methods});
 * this package builds the candidates ({@code Candidates}, {@code FixCode}, {@code Patcher}) and runs
 * them ({@code Repairer}).
 */
package io.github.odrust.maven.repair.od;
