package io.github.odrust.maven.repair.id;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.maven.core.Eta;
import io.github.odrust.maven.core.Words;
import java.util.Locale;

/**
 * How long the repair of ID tests will take (docs/id-tests.md, "Repairs"): each repair (a test, or
 * the tests pinned to one call site) predicted as its first candidate's runs alone (clean and under
 * each seed it is verified under), and two runs of the original order, without the patches and
 * with every patch found, each
 * priced from the last odrust:detect-id's runs; the rest scaled by what the ended repairs took
 * against their prediction. Said at the start, at each repair and at the end, where it is set
 * against what the repair took ({@code id-repair.json}'s {@code estimate}).
 */
final class IdRepairEstimate {
    /** A run alone and a run of the original order (ms); 0 when detect-id's report does not say. */
    private final long aloneMs;

    private final long suiteMs;
    /** The repairs to run (more are added when tests of one call site are repaired apart), and their prediction (ms). */
    private int units;

    private long total;
    /** A repair's prediction, drawn on while few ended. */
    private long typical;

    private int done;
    private long predictedDone;
    private long actualDone;
    private long startPredicted = -1;

    IdRepairEstimate(long aloneMs, long suiteMs) {
        this.aloneMs = Math.max(0, aloneMs);
        this.suiteMs = Math.max(0, suiteMs);
    }

    /**
     * From detect-id's report {@code phases}: a run alone at the searches' mean, a run of the
     * original order at phase 1's; zeros when either is missing (an earlier invocation ran it).
     */
    static IdRepairEstimate of(JsonObject report) {
        long alone = 0;
        long suite = 0;
        JsonArray phases = report.has("phases") && report.get("phases").isJsonArray()
                ? report.getAsJsonArray("phases")
                : new JsonArray();
        for (JsonElement e : phases) {
            JsonObject p = e.getAsJsonObject();
            long ms = p.has("actual_ms") ? p.get("actual_ms").getAsLong() : 0;
            int n = p.has("experiments") ? p.get("experiments").getAsInt() : 0;
            if (n <= 0) {
                continue;
            }
            String phase = p.has("phase") ? p.get("phase").getAsString() : "";
            if (phase.equals("searches")) {
                alone = ms / n;
            } else if (phase.equals("phase 1")) {
                suite = ms / n;
            }
        }
        return alone > 0 && suite > 0 ? new IdRepairEstimate(alone, suite) : new IdRepairEstimate(0, 0);
    }

    /** A repair of {@code aloneRuns} runs alone (ms); 0 for none (nothing to verify). */
    long price(int aloneRuns) {
        return Math.max(0, aloneRuns) * aloneMs;
    }

    /** A run of the original order with patches, to come when there is a repair to verify. */
    void addOriginalOrder() {
        if (units > 0) {
            originalOrders++;
            total += suiteMs;
        }
    }

    /** Runs of the original order with patches: to come, ended. */
    private int originalOrders;

    private int originalOrdersDone;

    /** "~40 s left" as a run of the original order with patches starts. */
    String originalOrderAt() {
        return priced() ? "~" + Eta.duration(left()) + " left" : "no time predicted";
    }

    /** A run of the original order with patches ended after {@code ms}. */
    void endedOriginalOrder(long ms) {
        if (originalOrdersDone++ < originalOrders) {
            predictedDone += suiteMs;
        }
        actualDone += ms;
    }

    /** A repair of {@code aloneRuns} runs alone, to come (none: not counted); its prediction (ms). */
    long add(int aloneRuns) {
        long p = price(aloneRuns);
        if (aloneRuns <= 0) {
            return 0; // nothing to verify: not a repair to count
        }
        units++;
        total += p;
        if (typical == 0) {
            typical = p;
        }
        return p;
    }

    private boolean priced() {
        return aloneMs > 0 && suiteMs > 0;
    }

    /** What is left (ms): the repairs not ended, scaled by what the ended ones took against their prediction. */
    long left() {
        // drawn towards 1 by a repair's worth of prediction while few ended
        double ratio = (actualDone + typical) / (double) Math.max(1, predictedDone + typical);
        return Math.round(Math.max(0, total - predictedDone) * ratio);
    }

    /** The start's line: "28 repairs: predicted ~9.5 min (...)". */
    String start() {
        startPredicted = total;
        String what = Words.count(units, "repair") + " to verify";
        if (!priced()) {
            return what + " (no time predicted: the last odrust:detect-id did not run its phases here)";
        }
        return what + ", predicted ~" + Eta.duration(total) + " (each: its first candidate's runs alone at "
                + seconds(aloneMs) + "; then the original order without the patches and with every one, at "
                + seconds(suiteMs) + " a run; from the last odrust:detect-id's runs)";
    }

    /** "repair 3 of 28, ~6.1 min left" as repair {@code k} (1-based) starts. */
    String at(int k) {
        String at = "repair " + k + " of " + units;
        return priced() ? at + ", ~" + Eta.duration(left()) + " left" : at;
    }

    /** A repair predicted at {@code predictedMs} ended after {@code ms}. */
    void ended(long predictedMs, long ms) {
        predictedDone += predictedMs;
        actualDone += ms;
        done++;
    }

    /** The end's words: "took 9.1 min (predicted at the start: ~9.5 min)". */
    String outcome() {
        return "took " + Eta.duration(actualDone)
                + (priced() && startPredicted > 0
                        ? " (predicted at the start: ~" + Eta.duration(startPredicted) + ")"
                        : "");
    }

    /** For id-repair.json: predicted at the start against taken (ms). */
    JsonObject json() {
        JsonObject o = new JsonObject();
        o.addProperty("repairs", done);
        o.addProperty("actual_ms", actualDone);
        if (priced() && startPredicted > 0) {
            o.addProperty("predicted_ms", startPredicted);
        }
        return o;
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
