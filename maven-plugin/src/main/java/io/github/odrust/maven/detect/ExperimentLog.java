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
 * killed run loses at most the experiment that was running. A last line cut short by a kill is
 * dropped on load; any other line that is not a record makes the history damaged: refused, naming
 * the file, the line and the fix, never read past in silence.
 */
public final class ExperimentLog {
    private final Path file;
    private final JsonArray history = new JsonArray();
    /** The records read from the file when it was loaded: an earlier run's (0 for a new log). */
    private int loaded;

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

    /** A history with a line that is not a record, other than a torn last one. */
    public static final class DamagedException extends IOException {
        DamagedException(String message) {
            super(message);
        }
    }

    /**
     * The log of an earlier run, to resume it.
     *
     * @throws DamagedException when a line other than the last is not a JSON object
     */
    public static ExperimentLog load(Path file) throws IOException {
        ExperimentLog log = new ExperimentLog(file);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int last = lines.size() - 1;
        while (last >= 0 && lines.get(last).trim().isEmpty()) {
            last--;
        }
        StringBuilder kept = new StringBuilder();
        for (int i = 0; i <= last; i++) {
            String line = lines.get(i);
            if (line.trim().isEmpty()) {
                continue;
            }
            JsonObject record;
            try {
                record = JsonParser.parseString(line).getAsJsonObject();
            } catch (RuntimeException e) {
                if (i == last) {
                    break; // the experiment that was being written when the run was killed
                }
                throw new DamagedException(file + " is damaged: line " + (i + 1) + " is not an experiment record ("
                        + excerpt(line) + "), and " + (last - i) + " more line" + (last - i == 1 ? "" : "s")
                        + " follow it. Delete or repair that line to go on with the records around it, or move "
                        + file.getFileName() + " away to start over; odrust does not skip it on its own.");
            }
            log.history.add(record);
            kept.append(line).append('\n');
        }
        // Rewrite without a torn last line, so appends start on a clean line.
        Files.write(file, kept.toString().getBytes(StandardCharsets.UTF_8));
        log.loaded = log.history.size();
        return log;
    }

    private static String excerpt(String line) {
        String t = line.trim();
        return "`" + (t.length() > 60 ? t.substring(0, 60) + "..." : t) + "`";
    }

    public JsonArray history() {
        return history;
    }

    public int size() {
        return history.size();
    }

    /** The first records, read from the file when it was loaded: those of earlier runs. */
    public int loaded() {
        return loaded;
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
