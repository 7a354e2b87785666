package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The history of one detection run, {@code detect/experiments.jsonl}: one experiment record per
 * line (docs/protocol.md), appended and synced to disk as soon as the experiment finishes, so a
 * killed run loses at most the experiment that was running. A line cut short by a kill is
 * dropped on load.
 */
public final class ExperimentLog {
    private final Path file;
    private final JsonArray history = new JsonArray();

    private ExperimentLog(Path file) {
        this.file = file;
    }

    /** A new, empty log (an old one at the same place is removed). */
    public static ExperimentLog create(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        Files.createFile(file);
        return new ExperimentLog(file);
    }

    /** The log of an earlier run, to resume it. */
    public static ExperimentLog load(Path file) throws IOException {
        ExperimentLog log = new ExperimentLog(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        StringBuilder kept = new StringBuilder();
        for (String line : lines) {
            if (line.trim().isEmpty()) {
                continue;
            }
            JsonObject record;
            try {
                record = JsonParser.parseString(line).getAsJsonObject();
            } catch (RuntimeException e) {
                break; // the experiment that was being written when the run was killed
            }
            log.history.add(record);
            kept.append(line).append('\n');
        }
        // Rewrite without a torn last line, so appends start on a clean line.
        Files.write(file, kept.toString().getBytes(StandardCharsets.UTF_8));
        return log;
    }

    public JsonArray history() {
        return history;
    }

    public int size() {
        return history.size();
    }

    public void append(JsonObject record) throws IOException {
        byte[] line = (Json.WIRE.toJson(record) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer buf = ByteBuffer.wrap(line);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        }
        history.add(record);
    }
}
