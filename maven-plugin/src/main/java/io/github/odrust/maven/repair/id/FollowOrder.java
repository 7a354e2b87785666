package io.github.odrust.maven.repair.id;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * DexFix's repair loop for HashToLinkedHash ("rerun until no new location fails"): when a
 * {@code LinkedHashMap} at the pinned allocation passes clean but a seed still fails the test, the
 * order often comes from another {@code HashMap} or {@code HashSet} the first was filled from (a
 * stream over another map's entries, a set copied into a list). The test then runs alone under
 * that seed with the patch, where every counted call names where its collection was made; the
 * first of those allocations in the module's sources becomes the next site. Only plain {@code
 * HashMap}/{@code HashSet} allocations are seen there, so a site already rewritten never comes
 * back.
 */
final class FollowOrder {
    private FollowOrder() {}

    /** Rounds after the first rewrite: each adds one allocation and verifies the whole again. */
    static final int ROUNDS = 4;

    /** An allocation to rewrite next: its source, line and type ({@code HashMap} or {@code HashSet}). */
    record Site(Path file, int line, String type) {}

    /**
     * The allocations the counted calls of a run name (the shuffle log's {@code calls}, in the
     * order they were made), each once, whose class {@code source} finds among the module's
     * sources (class and file name to path; null when not there).
     */
    static List<Site> allocations(JsonArray calls, BiFunction<String, String, Path> source) {
        Set<Site> out = new LinkedHashSet<>();
        for (JsonElement e : calls) {
            if (!e.isJsonObject() || !e.getAsJsonObject().has("alloc")) {
                continue;
            }
            JsonObject alloc = e.getAsJsonObject().getAsJsonObject("alloc");
            String type = alloc.has("type") ? alloc.get("type").getAsString() : null;
            JsonObject at = alloc.has("at") && alloc.get("at").isJsonObject() ? alloc.getAsJsonObject("at") : null;
            if (at == null
                    || !("HashMap".equals(type) || "HashSet".equals(type))
                    || !at.has("class")
                    || !at.has("line")
                    || at.get("line").isJsonNull()) {
                continue;
            }
            Path file = source.apply(
                    at.get("class").getAsString(),
                    at.has("file") && !at.get("file").isJsonNull()
                            ? at.get("file").getAsString()
                            : null);
            if (file != null && at.get("line").getAsInt() > 0) {
                out.add(new Site(file, at.get("line").getAsInt(), type));
            }
        }
        return new ArrayList<>(out);
    }
}
