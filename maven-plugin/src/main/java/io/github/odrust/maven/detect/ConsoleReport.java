package io.github.odrust.maven.detect;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.logging.Log;

/** The closing table of a detection run on the console, and its one-line module summary. */
public final class ConsoleReport {
    private ConsoleReport() {}

    public static void print(JsonObject report, Path out, Log log) {
        List<JsonObject> flaky = new ArrayList<>();
        report.getAsJsonArray("flaky").forEach(e -> flaky.add(e.getAsJsonObject()));
        log.info("");
        log.info(String.format("odrust detect: %s: %d tests, %d experiments, %d/%d rounds, seed=%s, strategy %s",
                report.get("module").getAsString(), report.get("tests_total").getAsInt(), report.get("experiments").getAsInt(),
                report.get("rounds_run").getAsInt(), report.get("rounds_planned").getAsInt(), report.get("seed").getAsString(),
                report.get("strategy").getAsString()));
        if (flaky.isEmpty()) {
            log.info("  no order-dependent or flaky test found");
        } else {
            int width = flaky.stream().map(f -> f.get("test").getAsString().length()).max(Comparator.naturalOrder()).orElse(10);
            log.info(String.format("  %-" + width + "s  %-12s %-22s %s", "TEST", "KIND", "FAILS IN", "PASSES IN"));
            for (JsonObject f : flaky) {
                log.warn(String.format("  %-" + width + "s  %-12s %-22s %s", f.get("test").getAsString(), f.get("kind").getAsString(),
                        fileName(f.get("failing_order")), fileName(f.get("passing_order"))));
                explain(f, log);
                if (f.has("reproduce") && !f.get("reproduce").isJsonNull()) {
                    log.info("      reproduce: " + f.get("reproduce").getAsString());
                }
            }
        }
        report.getAsJsonArray("failing").forEach(t -> log.warn("  fails in every order odrust ran: "
                + t.getAsJsonObject().get("test").getAsString()));
        report.getAsJsonArray("notes").forEach(n -> log.info("  note: " + n.getAsString()));
        log.info("  report: " + out.resolve("report.html") + " (and report.json)");
    }

    /** Polluters, cleaners, state-setters and flake rate of one entry, when minimization found them. */
    private static void explain(JsonObject f, Log log) {
        String polluters = groups(f.get("polluters"));
        if (polluters != null) {
            log.info("      polluters: " + polluters);
        }
        boolean complete = f.has("minimize_complete") && f.get("minimize_complete").getAsBoolean();
        JsonElement cleaners = f.get("cleaners");
        if (cleaners != null && cleaners.isJsonObject()) {
            for (Map.Entry<String, JsonElement> e : cleaners.getAsJsonObject().entrySet()) {
                List<String> ids = new ArrayList<>();
                e.getValue().getAsJsonArray().forEach(c -> ids.add(c.getAsString()));
                String none = complete ? "none found" : "none found so far (the search stopped early; see the notes)";
                log.info("      cleaners of " + e.getKey() + ": " + (ids.isEmpty() ? none : String.join(", ", ids)));
            }
        }
        String setters = groups(f.get("state_setters"));
        if (setters != null) {
            log.info("      state-setters: " + setters);
        }
        JsonElement rate = f.get("flake_rate");
        if (rate != null && rate.isJsonObject()) {
            JsonObject r = rate.getAsJsonObject();
            log.info(String.format("      flake rate: %s of all orders, %s of class-compatible orders (%s)",
                    percent(r.get("all_orders")), percent(r.get("class_compatible")), r.get("method").getAsString()));
        }
    }

    /** "a, b + c" for [["a"], ["b", "c"]]; null when absent or empty. */
    private static String groups(JsonElement value) {
        if (value == null || !value.isJsonArray() || value.getAsJsonArray().size() == 0) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (JsonElement g : value.getAsJsonArray()) {
            List<String> members = new ArrayList<>();
            if (g.isJsonArray()) {
                g.getAsJsonArray().forEach(m -> members.add(m.getAsString()));
            } else {
                members.add(g.getAsString());
            }
            out.add(String.join(" + ", members));
        }
        return String.join(", ", out);
    }

    private static String percent(JsonElement p) {
        return p == null || p.isJsonNull() ? "?" : String.format("%.1f%%", p.getAsDouble() * 100);
    }

    private static String fileName(JsonElement path) {
        if (path == null || path.isJsonNull()) {
            return "-";
        }
        String p = path.getAsString();
        return p.substring(p.lastIndexOf('/') + 1);
    }

    public static String moduleLine(JsonObject report) {
        Map<String, Integer> kinds = new LinkedHashMap<>();
        report.getAsJsonArray("flaky").forEach(f -> kinds.merge(f.getAsJsonObject().get("kind").getAsString(), 1, Integer::sum));
        String found = kinds.isEmpty() ? "nothing flaky" : kinds.toString().replaceAll("[{}]", "").replace("=", ": ");
        return report.get("tests_total").getAsInt() + " tests, " + report.get("experiments").getAsInt() + " experiments, " + found;
    }
}
