/**
 * {@code odrust:repair}: verified patches from cleaners and state-setters (docs/repair.md). The
 * engine plans ({@code repair_next}); this package parses and edits sources (JavaParser), compiles
 * candidates (javax.tools) and runs them.
 */
package io.github.odrust.maven.repair;
