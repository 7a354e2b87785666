package io.github.odrust.maven.detect;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code orders/exp-N.txt}: the order of each detection experiment, the file report.json's
 * reproduce commands name. Written as each experiment starts, and made again from the history
 * (which holds every order) when a resumed run finds one missing.
 */
final class OrderFiles {
    private OrderFiles() {}

    /** The file of experiment {@code id} under the output directory {@code out}. */
    static Path file(Path out, int id) {
        return out.resolve("orders").resolve("exp-" + id + ".txt");
    }

    /** The file's text: a comment line saying what the experiment was, then one test id per line. */
    static String text(int id, String kind, Integer round, String strategy, long seed, List<String> order) {
        StringBuilder text = new StringBuilder("# odrust experiment " + id + ": " + kind);
        if (round != null) {
            text.append(" round ").append(round).append(" (").append(strategy).append(')');
        }
        text.append(", seed=").append(seed).append('\n');
        for (String t : order) {
            text.append(t).append('\n');
        }
        return text.toString();
    }

    /** Writes the files of the history's experiments that are missing; returns how many. */
    static int restore(Path out, JsonArray history, long seed) throws IOException {
        int written = 0;
        for (JsonElement e : history) {
            JsonObject r = e.getAsJsonObject();
            if (!r.has("id") || !r.has("order") || !r.has("kind")) {
                continue;
            }
            int id = r.get("id").getAsInt();
            Path file = file(out, id);
            if (Files.exists(file)) {
                continue;
            }
            List<String> order = new ArrayList<>();
            r.getAsJsonArray("order").forEach(t -> order.add(t.getAsString()));
            Integer round = r.has("round") && !r.get("round").isJsonNull()
                    ? r.get("round").getAsInt()
                    : null;
            String strategy = r.has("strategy") && !r.get("strategy").isJsonNull()
                    ? r.get("strategy").getAsString()
                    : null;
            Files.createDirectories(file.getParent());
            Files.write(
                    file,
                    text(id, r.get("kind").getAsString(), round, strategy, seed, order)
                            .getBytes(StandardCharsets.UTF_8));
            written++;
        }
        return written;
    }
}
