package io.github.odrust.maven.history;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.detect.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * The quarantine file (docs/history.md, "Quarantine"): order-dependent tests and causes accepted
 * until a date, each with a reason and an owner. The engine ({@code quarantine_check}) says which
 * found tests it covers, which entries expired and which are ready to remove; this class reads
 * the file, says so on the console, and tells {@code failOnFlaky} what not to fail on.
 */
public final class Quarantine {
    /** Where the file is when {@code -Dodrust.quarantine} is not given, relative to the module. */
    public static final String DEFAULT = ".odrust/quarantine.json";

    /** What the quarantine says about a run. */
    public static final class Verdict {
        /** Found tests an entry in force covers: not failing the build. */
        public final Set<String> quarantined = new LinkedHashSet<>();
        /** One line per expired entry, naming its owner: each fails the build with failOnFlaky. */
        public final List<String> expired = new ArrayList<>();
        /** Found tests only expired entries cover (named in {@link #expired}). */
        public final Set<String> expiredTests = new LinkedHashSet<>();
        /** The file. */
        public Path file;
    }

    private Quarantine() {}

    /** The quarantine file {@code value} names (relative to the module), or the default one. */
    public static Path file(String value, Path basedir) {
        return basedir.resolve(value == null || value.trim().isEmpty() ? DEFAULT : value.trim())
                .toAbsolutePath()
                .normalize();
    }

    /** The day expiries are checked against: {@code value} ({@code YYYY-MM-DD}) or today in UTC. */
    public static String today(String value) throws MojoFailureException {
        if (value == null || value.trim().isEmpty()) {
            return LocalDate.now(ZoneOffset.UTC).toString();
        }
        try {
            return LocalDate.parse(value.trim()).toString();
        } catch (RuntimeException e) {
            throw new MojoFailureException(
                    "odrust.quarantine.today=" + value + " is not a date: give it as 2026-12-31");
        }
    }

    /**
     * Checks the order-dependent tests of {@code report} against the file (none when it does not
     * exist); {@code history}: the run records to tell entries ready to remove (null: none).
     */
    public static Verdict check(
            Engine engine,
            Path file,
            String today,
            Report report,
            Path history,
            String module,
            Integer removeAfter,
            Log log)
            throws MojoExecutionException {
        JsonArray found = new JsonArray();
        for (Summary.FlakyTest f : report.summary.flaky) {
            if (!f.isOrderDependent()) {
                continue;
            }
            JsonObject o = new JsonObject();
            o.addProperty("test", f.test);
            JsonArray polluters = new JsonArray();
            f.polluters.forEach(g -> g.forEach(polluters::add));
            JsonArray setters = new JsonArray();
            f.stateSetters.forEach(g -> g.forEach(setters::add));
            o.add("polluters", polluters);
            o.add("state_setters", setters);
            found.add(o);
        }
        return check(engine, file, today, found, history, module, removeAfter, log);
    }

    /**
     * As {@link #check(Engine, Path, String, Report, Path, String, Integer, Log)} for findings of
     * another goal ({@code odrust:audit}'s tests): {@code tests}, covered by {@code test} entries.
     */
    public static Verdict checkTests(Engine engine, Path file, String today, List<String> tests, Log log)
            throws MojoExecutionException {
        JsonArray found = new JsonArray();
        for (String t : tests) {
            JsonObject o = new JsonObject();
            o.addProperty("test", t);
            found.add(o);
        }
        return check(engine, file, today, found, null, null, null, log);
    }

    private static Verdict check(
            Engine engine,
            Path file,
            String today,
            JsonArray found,
            Path history,
            String module,
            Integer removeAfter,
            Log log)
            throws MojoExecutionException {
        Verdict verdict = new Verdict();
        verdict.file = file;
        if (!Files.isRegularFile(file)) {
            return verdict;
        }
        JsonObject request = new JsonObject();
        request.addProperty("file", file.toString());
        request.addProperty("today", today);
        try {
            request.addProperty("text", new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read the quarantine file " + file + ": " + e.getMessage(), e);
        }
        request.add("found", found);
        if (history != null && Files.isDirectory(history)) {
            request.add("history", io.github.odrust.engine.Json.WIRE.toJsonTree(RunRecords.read(history)));
            request.addProperty("module", module);
        }
        if (removeAfter != null) {
            request.addProperty("remove_after", removeAfter);
        }
        JsonObject v = engine.call("quarantine_check", request);
        for (JsonElement e : v.getAsJsonArray("quarantined")) {
            JsonObject q = e.getAsJsonObject();
            verdict.quarantined.add(q.get("test").getAsString());
            log.warn("quarantined " + q.get("test").getAsString() + " (entry "
                    + q.get("entry").getAsInt() + " of "
                    + file.getFileName() + ", owner " + q.get("owner").getAsString() + ", until "
                    + q.get("expires").getAsString() + ": " + q.get("reason").getAsString() + ")");
        }
        for (JsonElement e : v.getAsJsonArray("expired")) {
            JsonObject x = e.getAsJsonObject();
            JsonArray tests = x.getAsJsonArray("tests");
            tests.forEach(t -> verdict.expiredTests.add(t.getAsString()));
            verdict.expired.add(
                    "entry " + x.get("entry").getAsInt() + " (" + x.get("what").getAsString()
                            + ") expired on " + x.get("expires").getAsString() + "; owner: "
                            + x.get("owner").getAsString()
                            + (tests.isEmpty() ? "" : "; found again: " + join(tests)));
        }
        verdict.expired.forEach(line -> log.warn("quarantine " + line));
        for (JsonElement e : v.getAsJsonArray("notes")) {
            log.warn("quarantine: " + e.getAsString());
        }
        for (JsonElement e : v.getAsJsonArray("ready_to_remove")) {
            JsonObject r = e.getAsJsonObject();
            log.info("quarantine entry " + r.get("entry").getAsInt() + " ("
                    + r.get("what").getAsString() + ") of " + file + " is ready to remove: "
                    + r.get("why").getAsString());
        }
        return verdict;
    }

    private static String join(JsonArray a) {
        List<String> l = new ArrayList<>();
        a.forEach(x -> l.add(x.getAsString()));
        return String.join(", ", l);
    }
}
