package io.github.odrust.engine;

/**
 * An error reported by the engine. {@link #getCode()} is one of the codes in docs/protocol.md
 * ({@code unknown-test}, {@code malformed-order}, {@code panic}, ...); the message is written for a
 * person and names the input that failed.
 */
public class EngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    /** Called from Rust (constructor signature {@code (Ljava/lang/String;Ljava/lang/String;)V}). */
    public EngineException(String code, String message) {
        super(message);
        this.code = code;
    }

    public String getCode() {
        return code;
    }
}
