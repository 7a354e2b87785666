package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;

/** Response of {@code version} (Rust: {@code protocol::VersionResponse}). */
public final class VersionResponse {
    @SerializedName("engine_version")
    public String engineVersion;

    public int abi;
}
