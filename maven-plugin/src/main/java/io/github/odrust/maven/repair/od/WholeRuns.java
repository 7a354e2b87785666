package io.github.odrust.maven.repair.od;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.protocol.RepairRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The candidates a cause's repair ran with their whole body, and which of the cause's tests each
 * left failing: when no patch fixed the cause and it is split, a part need not run again a
 * candidate at a placement whose whole body left every one of the part's tests failing, in the
 * same code (docs/repair.md, "Split"). On light-4j's {@code config} every part and then every
 * test of a 19-victim cause ran the same reset calls at the same placements again, each failing.
 */
final class WholeRuns {
    /** One fresh run of a candidate's whole body in a repair's failing order. */
    record Run(
            String source,
            String placement,
            String polluter,
            int experiment,
            List<String> order,
            Set<String> failed,
            List<String> code) {

        /** Whether every one of {@code tests} failed, errored, crashed or timed out in it. */
        boolean failedAll(List<String> tests) {
            return failed.containsAll(tests);
        }
    }

    private WholeRuns() {}

    /**
     * The fresh runs of a candidate's whole body (every statement of its source in {@code fixes})
     * among {@code history}'s records of target {@code test} and {@code fingerprint}: the failing
     * order's, where the candidate compiled and the order was run as asked.
     */
    static List<Run> of(JsonArray history, String test, String fingerprint, Map<String, FixCode> fixes) {
        List<Run> runs = new ArrayList<>();
        Map<String, List<String>> codes = new HashMap<>();
        for (JsonElement e : history) {
            JsonObject r = e.getAsJsonObject();
            if (!test.equals(text(r, "test"))
                    || !fingerprint.equals(text(r, "fingerprint"))
                    || !"failing-order".equals(text(r, "check"))
                    || text(r, "compile_error") != null
                    || "classloader".equals(text(r, "isolation"))
                    || (r.has("honoured") && !r.get("honoured").getAsBoolean())) {
                continue;
            }
            FixCode fix = fixes.get(text(r, "source"));
            String placement = text(r, "placement");
            if (fix == null || placement == null || !whole(r.getAsJsonArray("statements"), fix.statements.size())) {
                continue;
            }
            // A skipped or not-run test never ran: such a run is no evidence against a candidate.
            Set<String> failed =
                    new HashSet<>(io.github.odrust.maven.run.RunResult.failedTests(r.getAsJsonArray("results")));
            List<String> order = new ArrayList<>();
            r.getAsJsonArray("order").forEach(o -> order.add(o.getAsString()));
            runs.add(new Run(
                    fix.test,
                    placement,
                    text(r, "polluter"),
                    r.get("id").getAsInt(),
                    order,
                    failed,
                    codes.computeIfAbsent(fix.test, k -> code(fix))));
        }
        return runs;
    }

    /**
     * What the engine may skip for a part: each run that left all its {@code members} failing,
     * whose source has the same code in the part's {@code fixes}; null when none.
     */
    static List<RepairRequest.RuledOut> ruledOut(List<Run> runs, List<String> members, Map<String, FixCode> fixes) {
        List<RepairRequest.RuledOut> out = new ArrayList<>();
        Map<String, List<String>> codes = new HashMap<>();
        for (Run run : runs) {
            FixCode fix = fixes.get(run.source());
            if (fix == null
                    || !run.failedAll(members)
                    || !run.code().equals(codes.computeIfAbsent(run.source(), k -> code(fix)))) {
                continue;
            }
            RepairRequest.RuledOut r = new RepairRequest.RuledOut();
            r.source = run.source();
            r.placement = run.placement();
            r.polluter = run.polluter();
            r.experiment = run.experiment();
            r.order = run.order();
            out.add(r);
        }
        return out.isEmpty() ? null : out;
    }

    private static List<String> code(FixCode fix) {
        List<String> code = new ArrayList<>();
        for (int i = 0; i < fix.statements.size(); i++) {
            code.add(fix.text(i));
        }
        return code;
    }

    private static boolean whole(JsonArray statements, int n) {
        if (statements == null || statements.size() != n || n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (statements.get(i).getAsInt() != i) {
                return false;
            }
        }
        return true;
    }

    private static String text(JsonObject o, String key) {
        JsonElement v = o.get(key);
        return v == null || v.isJsonNull() ? null : v.getAsString();
    }
}
