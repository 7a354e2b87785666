package io.github.odrust.engine.protocol;

import java.util.List;

/** Request of {@code check_run} (Rust: {@code protocol::CheckRunRequest}). */
public final class CheckRunRequest {
    /** The order asked for. */
    public List<String> requested;
    /** The tests that ran, in the order they ran. */
    public List<String> ran;

    public CheckRunRequest(List<String> requested, List<String> ran) {
        this.requested = requested;
        this.ran = ran;
    }
}
