package io.github.odrust.engine.protocol;

/** Request of {@code detect_end} (Rust: {@code protocol::EndRequest}): frees a session. */
public final class DetectEndRequest {
    public String session;

    public DetectEndRequest(String session) {
        this.session = session;
    }
}
