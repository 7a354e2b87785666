/**
 * The engine's responses as Java types, bound with {@link io.github.odrust.engine.Json#WIRE}
 * (docs/protocol.md, "Engine calls" and "Detection"). Each class mirrors one Rust type of the
 * engine, named in its javadoc, field for field and in the same order; {@code ProtocolTest} calls
 * the real engine and checks that every response serializes back to exactly what the engine sent,
 * so a field renamed, added or removed on one side fails a unit test instead of a run.
 *
 * <p>Enumerations of the engine (outcomes, kinds, phases, strategies) are plain strings here. A
 * field the engine leaves out when empty carries {@link io.github.odrust.engine.protocol.OmitWhenNull}.
 */
package io.github.odrust.engine.protocol;
