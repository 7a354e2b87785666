package io.github.odrust.engine;

/**
 * The native methods of the Rust engine. Only {@link EngineLoader} binds them; everything else goes
 * through {@link Engine}. Names and signatures must match {@code engine/src/jni_api.rs}.
 */
final class NativeEngine {
    /** The ABI this plugin speaks; the engine reports its own through {@link #abiVersion()}. */
    static final int ABI_VERSION = 2;

    private NativeEngine() {}

    static native int abiVersion();

    static native String engineVersion();

    /** Runs one engine operation; throws {@link EngineException} for every error and for a panic. */
    static native String call(String op, String requestJson);
}
