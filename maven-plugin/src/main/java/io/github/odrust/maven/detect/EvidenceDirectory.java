package io.github.odrust.maven.detect;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The directory of a goal whose run resumes while its settings stay the same ({@code
 * target/odrust/id}, {@code target/odrust/audit}): {@code settings.json}, the history {@code
 * experiments.jsonl}, and each experiment's files. A run with other settings first moves the
 * earlier directory aside ({@code id.previous-1}, ...), and so does one whose recorded settings
 * cannot be read: evidence is never overwritten.
 */
public final class EvidenceDirectory {
    private EvidenceDirectory() {}

    /** The settings recorded in {@code dir/settings.json}, or null when absent or unreadable. */
    public static JsonObject savedSettings(Path dir) {
        Path f = dir.resolve("settings.json");
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try {
            return JsonParser.parseString(new String(Files.readAllBytes(f), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The history of a run with {@code wanted} settings in {@code dir}: the earlier one's when its
     * settings are the same (a resumed run), a new one otherwise, after moving the earlier
     * directory aside (said through {@code say}); then records {@code wanted}.
     */
    public static ExperimentLog open(Path dir, JsonObject wanted, String goal, Consumer<String> say)
            throws IOException {
        Path file = dir.resolve("experiments.jsonl");
        JsonObject saved = savedSettings(dir);
        boolean earlier = Files.exists(file) || (saved != null && Files.exists(dir));
        if (earlier && (saved == null || !saved.equals(wanted))) {
            Path aside = aside(dir);
            Files.move(dir, aside);
            say.accept("odrust " + goal + ": the earlier run in " + dir + " had "
                    + (saved == null ? "settings that cannot be read" : "other settings (" + saved + ")")
                    + "; its evidence is kept in " + aside);
        }
        Files.createDirectories(dir);
        ExperimentLog history = saved != null && saved.equals(wanted) && Files.exists(file)
                ? ExperimentLog.load(file)
                : ExperimentLog.create(file);
        ReportWriter.atomicWrite(dir.resolve("settings.json"), Json.WIRE.toJson(wanted) + "\n");
        return history;
    }

    private static Path aside(Path dir) {
        for (int i = 1; ; i++) {
            Path p = dir.resolveSibling(dir.getFileName() + ".previous-" + i);
            if (!Files.exists(p)) {
                return p;
            }
        }
    }
}
