package io.github.odrust.maven.fork;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the events file the agent is still writing: each {@link #poll()} returns the complete lines
 * added since the last call. A half-written last line (a JVM killed mid-write) is never returned.
 */
public final class EventTail {
    private final Path file;
    private long offset;
    private final List<JsonObject> all = new ArrayList<>();

    public EventTail(Path file) {
        this.file = file;
    }

    public List<JsonObject> poll() throws IOException {
        List<JsonObject> out = new ArrayList<>();
        if (!Files.exists(file)) {
            return out;
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            if (length <= offset) {
                return out;
            }
            byte[] buf = new byte[(int) (length - offset)];
            raf.seek(offset);
            raf.readFully(buf);
            int start = 0;
            for (int i = 0; i < buf.length; i++) {
                if (buf[i] == '\n') {
                    String line = new String(buf, start, i - start, StandardCharsets.UTF_8).trim();
                    start = i + 1;
                    if (!line.isEmpty()) {
                        try {
                            out.add(JsonParser.parseString(line).getAsJsonObject());
                        } catch (JsonSyntaxException | IllegalStateException e) {
                            JsonObject bad = new JsonObject();
                            bad.addProperty("event", "unreadable");
                            bad.addProperty("line", line);
                            out.add(bad);
                        }
                    }
                }
            }
            offset += start;
        }
        all.addAll(out);
        return out;
    }

    /** Every event read so far. */
    public List<JsonObject> all() {
        return all;
    }
}
