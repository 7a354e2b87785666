package io.github.odrust.engine.protocol;

import com.google.gson.annotations.SerializedName;
import java.util.ArrayList;
import java.util.List;

/**
 * Request of {@code reachable_classes} (Rust: {@code incremental::reach::ReachRequest};
 * docs/protocol.md): which classes of the class directories a test's class reaches.
 */
public final class ReachRequest {
    @SerializedName("class_dirs")
    public List<String> classDirs = new ArrayList<>();
    /** Dotted class names to start from. */
    public List<String> from = new ArrayList<>();

    /** Rust: {@code incremental::reach::ReachResponse}. */
    public static final class Response {
        public List<String> reachable = new ArrayList<>();
        /** Classes of the graph no start class reaches; a class in neither list is unknown. */
        public List<String> unreachable = new ArrayList<>();
    }
}
