package io.github.odrust.engine.protocol;

/** Request of {@code read_surefire_reports} (Rust: {@code protocol::SurefireRequest}). */
public final class SurefireRequest {
    /** The directory of the {@code TEST-*.xml} files. */
    public String dir;

    public SurefireRequest(String dir) {
        this.dir = dir;
    }
}
