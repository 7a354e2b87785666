package io.github.odrust.engine.protocol;

import com.google.gson.JsonObject;
import com.google.gson.annotations.JsonAdapter;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code audit_next} (Rust: {@code audit::AuditRequest}; docs/audit.md). */
public final class AuditRequest {
    /** The tests to audit, in their original order. */
    public List<String> original = new ArrayList<>();
    /**
     * The audit's records. Rust {@code audit::AuditRecord} flattens the experiment into the
     * record, so serde cannot refuse unknown fields there; they stay JSON.
     */
    public List<JsonObject> history = new ArrayList<>();

    @SerializedName("next_id")
    public Integer nextId;
    /** A digest of the module's code and the capture settings; records of another are not replayed. */
    public String fingerprint;
    /** Class directories read to rank latent polluters by the test classes that read their field. */
    @SerializedName("class_dirs")
    public List<String> classDirs = new ArrayList<>();
    /** Every test class of the module (readers count among them, audited or not). */
    @SerializedName("test_classes")
    public List<String> testClasses = new ArrayList<>();
    /** Candidates of non-idempotence to confirm at most; the engine's default when null. */
    @SerializedName("max_confirm")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer maxConfirm;
    /** Whether to make and verify a teardown patch for each latent polluter that can have one. */
    public boolean repair;
    /** Latent polluters to try to patch at most; the engine's default when null. */
    @SerializedName("max_repair")
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public Integer maxRepair;
    /** The candidate patches made for the polluters of a {@code fixes} step; null until then. */
    @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
    public List<FixCandidates> fixes;

    /** Rust: {@code audit::FixCandidates}: the candidates made for one wanted fix, best first. */
    public static final class FixCandidates {
        public String test;
        public String field;
        public List<FixCandidate> candidates = new ArrayList<>();
        /** Why there is none. */
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String note;
    }

    /** Rust: {@code audit::FixCandidate}. */
    public static final class FixCandidate {
        public String id;
        public List<String> statements = new ArrayList<>();

        @SerializedName("compile_error")
        @JsonAdapter(value = OmitWhenNull.class, nullSafe = false)
        public String compileError;
    }
}
