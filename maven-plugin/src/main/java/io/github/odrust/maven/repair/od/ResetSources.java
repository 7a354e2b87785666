package io.github.odrust.maven.repair.od;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.ResetRequest;
import io.github.odrust.engine.protocol.ResetResponse;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.detect.DetectInput;
import io.github.odrust.maven.diagnose.Diagnoser;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * Repair without a cleaner (docs/repair.md, "Reset methods"): the victim's polluted state, as
 * {@code odrust:diagnose} confirms it, and the calls of the module's own code that reset it, as
 * the engine finds them in the class files ({@code reset_methods}). They become sources the repair
 * planner tries after every cleaner: the best-ranked calls each alone, then all of them together
 * (delta debugging keeps the needed ones, when several fields need several calls).
 */
final class ResetSources {
    /** The id prefix of these sources (never a test id: it has no {@code #}). */
    static final String PREFIX = "reset-method:";
    /** The id suffix of a source that sets a field back to its passing value. */
    static final String PASSING_VALUE = ":passing-value";
    /** Best-ranked calls tried each on its own, before all of them together. */
    static final int SINGLES = 5;

    /** The sources, by id. */
    final Map<String, FixCode> fixes = new LinkedHashMap<>();
    /** The diagnosis verdict. */
    JsonObject diagnosis;
    /** The reset statements found, best first. */
    final List<String> statements = new ArrayList<>();
    /** When nothing resets the polluted state: what it is, so a person can write the reset. */
    String note;
    /** The polluted fields with both values, for messages; null when diagnosis named none. */
    String state;

    /** What to add to the reason of a test that got no patch. */
    String noPatchNote() {
        if (note != null) {
            return note;
        }
        if (state != null) {
            return "the calls of the module's own code tried for " + state + " do not set it back (see `tried`): a"
                    + " static method that does, callable from the test, would let odrust:repair make a patch";
        }
        return null;
    }

    static boolean isReset(String source) {
        return source != null && source.startsWith(PREFIX);
    }

    /** Whether the source sets a field back to the value it had when the test passed. */
    static boolean isPassingValue(String source) {
        return isReset(source) && source.endsWith(PASSING_VALUE);
    }

    static ResetSources find(
            Engine engine,
            TestModule module,
            Diagnoser diagnoser,
            Summary.FlakyTest target,
            DetectInput input,
            String targetClass,
            io.github.odrust.engine.protocol.DiagnoseRequest.Shared shared)
            throws MojoExecutionException {
        ResetSources r = new ResetSources();
        r.diagnosis = diagnoser.diagnose(target, input.reportFile, shared);
        String status = r.diagnosis.get("status").getAsString();
        Set<String> wanted = new LinkedHashSet<>();
        r.diagnosis.getAsJsonArray("polluted_state").forEach(f -> wanted.add(f.getAsString()));
        List<JsonObject> fields = new ArrayList<>();
        for (JsonElement e : r.diagnosis.getAsJsonArray("fields")) {
            JsonObject f = e.getAsJsonObject();
            // confirmed: the minimal set; otherwise every field that differs (a reset is verified
            // anyway, and a field that cannot be restored may still have a reset method)
            boolean take = !"confirmed".equals(status)
                    || wanted.contains(f.get("field").getAsString());
            if (take && !f.get("pseudo").getAsBoolean()) {
                fields.add(f);
            }
        }
        if (fields.isEmpty()) {
            r.note = "odrust:diagnose names no static field of the module to reset (" + status + ": "
                    + r.diagnosis.get("reason").getAsString() + ")";
            return r;
        }
        List<String> dirs = new ArrayList<>();
        for (File f : module.classpath) {
            if (f.isDirectory() && !f.equals(module.agentJar)) {
                dirs.add(f.getAbsolutePath());
            }
        }
        // The class a polluter-teardown patch edits: the first single polluter's, as the planner
        // places it.
        String polluterClass = target.polluters.stream()
                .filter(g -> g.size() == 1)
                .map(g -> g.get(0).substring(0, g.get(0).indexOf('#')))
                .findFirst()
                .orElse(null);
        // The passing value is set back only for a confirmed field: restoring it is what made the
        // test pass (for other verdicts, restoring every value did not). A test confirmed by its
        // cause's shared diagnosis has no capture of its own: that diagnosis's passing capture.
        boolean confirmed = "confirmed".equals(status);
        String passingCapture = confirmed ? capture(r.diagnosis, "passing_capture") : null;
        String failingCapture = confirmed ? capture(r.diagnosis, "failing_capture") : null;
        if (confirmed && passingCapture == null && shared != null && shared.pollutedState.containsAll(wanted)) {
            passingCapture = shared.passingCapture;
        }
        Map<String, ResetResponse.Candidate> all = new LinkedHashMap<>();
        List<String> nothing = new ArrayList<>();
        List<String> described = new ArrayList<>();
        for (JsonObject f : fields) {
            String display = f.get("field").getAsString();
            String values = display + " (" + f.get("failing").getAsString() + " after the polluter, "
                    + f.get("passing").getAsString() + " when the test passes)";
            described.add(values);
            int dot = display.lastIndexOf('.');
            ResetRequest request = new ResetRequest();
            request.classDirs = dirs;
            request.field = new ResetRequest.FieldId(display.substring(0, dot), display.substring(dot + 1));
            request.innerFields = innerFields(display, f.getAsJsonArray("differences"));
            request.testClass = targetClass;
            request.polluterClass = polluterClass;
            request.passingCapture = passingCapture;
            request.failingCapture = failingCapture;
            ResetResponse response = engine.call("reset_methods", request, ResetResponse.class);
            int before = all.size();
            for (ResetResponse.Candidate c : response.candidates) {
                all.putIfAbsent(c.statement, c);
            }
            if (all.size() == before) {
                nothing.add(
                        response.directRestoreRefused == null
                                ? values
                                : values + " (and it is not set back directly: " + response.directRestoreRefused + ")");
            }
        }
        r.state = String.join(", ", described);
        r.statements.addAll(all.keySet());
        if (!nothing.isEmpty()) {
            r.note = "no method of the module resets " + String.join(", ", nothing)
                    + ": a static method that sets it back, callable from the test, would let odrust:repair make a patch";
        }
        if (all.isEmpty()) {
            return r;
        }
        r.fixes.putAll(sources(new ArrayList<>(all.values()), targetClass));
        return r;
    }

    /**
     * The sources of the candidates {@code list} (best first) for a patch of a test of {@code
     * targetClass}: the best-ranked ones one by one first (the planner tries sources in this
     * order), each where the engine says it compiles, then all of those the test's class can
     * compile together, at the placements they share, which delta debugging cuts down (several
     * fields may need several).
     */
    static Map<String, FixCode> sources(List<ResetResponse.Candidate> list, String targetClass) {
        Map<String, FixCode> out = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(SINGLES, list.size()); i++) {
            ResetResponse.Candidate c = list.get(i);
            String id = PREFIX + (i + 1) + ("passing-value".equals(c.kind) ? PASSING_VALUE : "");
            FixCode fix = FixCode.generated(id, targetClass, c.statements);
            fix.placements = c.placements;
            out.put(id, fix);
        }
        List<ResetResponse.Candidate> together = new ArrayList<>();
        for (ResetResponse.Candidate c : list) {
            if (c.placements.contains("setup")) {
                together.add(c);
            }
        }
        if (together.size() > 1) {
            List<String> statements = new ArrayList<>();
            List<String> placements = new ArrayList<>(List.of("setup", "polluter-teardown", "test"));
            for (ResetResponse.Candidate c : together) {
                statements.addAll(c.statements);
                placements.retainAll(c.placements);
            }
            FixCode fix = FixCode.generated(PREFIX + "all", targetClass, statements);
            fix.placements = placements;
            out.put(PREFIX + "all", fix);
        }
        return out;
    }

    /** A capture path of the diagnosis verdict, or null. */
    private static String capture(JsonObject diagnosis, String name) {
        JsonElement e = diagnosis.get(name);
        return e == null || e.isJsonNull() ? null : e.getAsString();
    }

    /** The instance fields right under the static field in the differing paths ({@code F.jobs[x]} gives {@code jobs}). */
    static List<String> innerFields(String field, JsonArray differences) {
        Set<String> out = new LinkedHashSet<>();
        for (JsonElement d : differences) {
            String path = d.getAsJsonObject().get("path").getAsString();
            if (path.length() > field.length() + 1 && path.startsWith(field) && path.charAt(field.length()) == '.') {
                String rest = path.substring(field.length() + 1);
                int end = 0;
                while (end < rest.length()
                        && rest.charAt(end) != '.'
                        && rest.charAt(end) != '['
                        && rest.charAt(end) != '{') {
                    end++;
                }
                out.add(rest.substring(0, end));
            }
        }
        return new ArrayList<>(out);
    }
}
