package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code detect_merge} (Rust: {@code detect::merge::MergeRequest}; docs/protocol.md). */
public final class MergeRequest {
    /** The shards, in any order. */
    public List<ShardRun> shards = new ArrayList<>();

    /** One shard's recorded run (Rust: {@code detect::merge::ShardRun}). */
    public static final class ShardRun {
        /** Where it came from, for the report. */
        public String source;
        /** The odrust version of its report.json. */
        @SerializedName("odrust_version")
        public String odrustVersion;
        /** Its run.json's config. */
        public DetectRequest.Config config;

        public Suite suite;
        public List<ExperimentRecord> history = new ArrayList<>();
    }
}
