package io.github.odrust.engine;

/**
 * An error reported by the engine. {@link #getCode()} is one of the codes in docs/protocol.md
 * ({@code unknown-test}, {@code malformed-order}, {@code panic}, ...); the message is written for a
 * person and names the input that failed; {@link #isUserError()} says whether the user can fix it
 * (a wrong setting, test id, order or file) or it is a bug in odrust. The engine decides both.
 */
public class EngineException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final boolean userError;

    /** Called from Rust (constructor signature {@code (Ljava/lang/String;Ljava/lang/String;Z)V}). */
    public EngineException(String code, String message, boolean userError) {
        super(message);
        this.code = code;
        this.userError = userError;
    }

    /** An error of the plugin's own (loading the engine): not the user's to fix. */
    public EngineException(String code, String message) {
        this(code, message, false);
    }

    public String getCode() {
        return code;
    }

    /** True when the user's input is wrong (not odrust): the build fails with the message alone. */
    public boolean isUserError() {
        return userError;
    }
}
