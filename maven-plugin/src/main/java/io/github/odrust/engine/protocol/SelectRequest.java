package io.github.odrust.engine.protocol;

import com.google.gson.JsonElement;
import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/** Request of {@code incremental_select} (Rust: {@code incremental::select::SelectRequest}; docs/incremental.md). */
public final class SelectRequest {
    @SerializedName("main_dirs")
    public List<String> mainDirs = new ArrayList<>();

    @SerializedName("test_dirs")
    public List<String> testDirs = new ArrayList<>();

    public List<String> jars = new ArrayList<>();
    /** The project's own jars among {@code jars}: read class by class (a reactor sibling, an artifact of its groupId). */
    @SerializedName("own_jars")
    public List<String> ownJars = new ArrayList<>();

    @SerializedName("test_classes")
    public List<String> testClasses = new ArrayList<>();
    /**
     * The state the last selection saved, as the engine wrote it (the engine checks it: Rust
     * {@code incremental::state::State}); null for none.
     */
    public JsonElement state;

    @SerializedName("build_fingerprint")
    public String buildFingerprint;

    @SerializedName("select_all")
    public boolean selectAll;
}
