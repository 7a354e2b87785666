/**
 * {@code odrust:repair} for implementation-dependent tests (docs/id-tests.md): DexFix's rewrites of
 * a pinned call as text edits ({@code DexFix}), compiled and verified clean and under seeds
 * ({@code IdRepairer}).
 */
package io.github.odrust.maven.repair.id;
