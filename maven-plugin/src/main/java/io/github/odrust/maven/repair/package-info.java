/**
 * What both repairs share: reading and parsing sources ({@code JavaSources}, JavaParser), text edits
 * at parser positions ({@code TextEdits}), compiling a candidate ({@code CandidateCompiler},
 * javax.tools), unified diffs that apply as written, byte for byte ({@code UnifiedPatch}), the
 * check that a written patch applies from where Maven ran and the command that applies it
 * ({@code PatchCheck}) and {@code repair.json} ({@code RepairFile}). Order-dependent repair is {@link io.github.odrust.maven.repair.od}; repair of
 * implementation-dependent tests is {@link io.github.odrust.maven.repair.id}.
 */
package io.github.odrust.maven.repair;
