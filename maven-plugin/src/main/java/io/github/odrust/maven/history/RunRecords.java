package io.github.odrust.maven.history;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The run records of {@code -Dodrust.history=DIR} (docs/history.md): each detect, incremental,
 * merge, repair and audit run appends one compact record, {@code DIR/<run id>.json}, written whole
 * (a temporary file moved into place) and never over another: a history never loses a record, and
 * two CI jobs writing into one directory do not collide. The records of one run say what it found
 * ({@code tests}, {@code causes}), what it ran ({@code ran}) and what it offered ({@code patches}).
 */
public final class RunRecords {
    /** The layout version (the engine's {@code history::RECORD_VERSION}). */
    public static final int VERSION = 1;

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern(
                    "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** A record's file name: its run id and {@code .json}. */
    private static final java.util.regex.Pattern NAME =
            java.util.regex.Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]+\\.json");

    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final Path dir;
    private final Path basedir;
    private final String commit;
    private final Clock clock;

    /**
     * Records into {@code dir} for the module in {@code basedir}; {@code commit}: the commit to
     * record (null: {@code git rev-parse HEAD} in {@code basedir}, when git is there).
     */
    public RunRecords(Path dir, Path basedir, String commit, Clock clock) {
        this.dir = dir;
        this.basedir = basedir;
        this.commit = commit;
        this.clock = clock;
    }

    /**
     * The history directory {@code value} names, relative to {@code root} (where Maven ran: one
     * directory for every module of a reactor); null when not given.
     */
    public static Path directory(String value, Path root) {
        if (value == null || value.trim().isEmpty()) {
            return null;
        }
        return root.resolve(value.trim()).toAbsolutePath().normalize();
    }

    /** A new record of {@code goal} on {@code module}: id, date, commit, the rest to fill in. */
    public JsonObject start(String goal, String module) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        byte[] random = new byte[3];
        new SecureRandom().nextBytes(random);
        StringBuilder suffix = new StringBuilder();
        for (byte b : random) {
            suffix.append(String.format(Locale.ROOT, "%02x", b));
        }
        JsonObject r = new JsonObject();
        r.addProperty("schema_version", VERSION);
        r.addProperty("run_id", ID_TIME.format(now) + "-" + suffix);
        r.addProperty("goal", goal);
        r.addProperty("module", module);
        // milliseconds always written: records of one second sort by time, as text
        r.addProperty("date", DATE.format(now));
        String head = git("rev-parse", "HEAD");
        String c = commit != null && !commit.trim().isEmpty() ? commit.trim() : head;
        if (c != null) {
            r.addProperty("commit", c);
        }
        String status = head == null ? null : git("status", "--porcelain", "--untracked-files=no");
        if (status != null) {
            r.addProperty("dirty", !status.isEmpty());
        }
        r.add("settings", new JsonObject());
        r.add("tests", new JsonArray());
        r.add("causes", new JsonArray());
        r.add("patches", new JsonArray());
        return r;
    }

    /** Writes {@code record} as {@code DIR/<run id>.json}; returns the file. */
    public Path append(JsonObject record, Log log) throws MojoExecutionException {
        Path file = dir.resolve(record.get("run_id").getAsString() + ".json");
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, ".odrust-record", ".tmp");
            Files.write(tmp, (Json.WIRE.toJson(record) + "\n").getBytes(StandardCharsets.UTF_8));
            // never over an earlier record: a move without REPLACE_EXISTING onto an existing file
            // fails (and the run id's random part makes that all but impossible)
            Files.move(tmp, file);
            tmp = null;
        } catch (FileAlreadyExistsException e) {
            throw new MojoExecutionException("odrust history: " + file + " exists already; not overwritten");
        } catch (IOException e) {
            throw new MojoExecutionException(
                    "odrust history: cannot write " + file + " (-Dodrust.history): " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a temporary file left behind is never read as a record
                }
            }
        }
        log.info("odrust history: run recorded in " + file);
        return file;
    }

    /**
     * Fills {@code record} from a detection report ({@code report.json} of detect, incremental or
     * merge): its flaky tests and causes, whether it finished, its seed and strategy; {@code
     * suiteJson}: the suite it ran ({@code suite.json}), for {@code ran}.
     */
    public static void fromReport(JsonObject record, JsonObject report, Path suiteJson) {
        record.addProperty(
                "complete", report.has("complete") && report.get("complete").getAsBoolean());
        JsonObject settings = record.getAsJsonObject("settings");
        for (String key : new String[] {"seed", "strategy", "rounds_run"}) {
            if (report.has(key)) {
                settings.add(key, report.get(key));
            }
        }
        record.add("ran", ran(suiteJson));
        JsonArray causes = report.has("causes") ? report.getAsJsonArray("causes") : new JsonArray();
        JsonArray tests = record.getAsJsonArray("tests");
        if (report.has("flaky")) {
            for (JsonElement e : report.getAsJsonArray("flaky")) {
                JsonObject f = e.getAsJsonObject();
                JsonObject t = new JsonObject();
                String id = f.get("test").getAsString();
                t.addProperty("test", id);
                t.addProperty("kind", f.get("kind").getAsString());
                for (JsonElement c : causes) {
                    if (c.getAsJsonObject().getAsJsonArray("tests").contains(f.get("test"))) {
                        t.addProperty("cause", c.getAsJsonObject().get("id").getAsInt());
                    }
                }
                JsonElement rate = f.has("flake_rate") && f.get("flake_rate").isJsonObject()
                        ? f.getAsJsonObject("flake_rate").get("all_orders")
                        : null;
                if (rate != null && rate.isJsonPrimitive()) {
                    t.add("flake_rate", rate);
                }
                tests.add(t);
            }
        }
        JsonArray out = record.getAsJsonArray("causes");
        for (JsonElement e : causes) {
            JsonObject c = e.getAsJsonObject();
            JsonObject o = new JsonObject();
            o.add("id", c.get("id"));
            o.add("role", c.get("role"));
            o.add("title", c.get("title"));
            o.add("tests", c.get("tests"));
            String origins = "brittle".equals(c.get("role").getAsString()) ? "state_setters" : "polluters";
            o.add("origins", c.has(origins) ? c.get(origins) : new JsonArray());
            out.add(o);
        }
    }

    /** The test ids of a {@code suite.json}; an empty list when it cannot be read. */
    static JsonArray ran(Path suiteJson) {
        JsonArray ids = new JsonArray();
        if (suiteJson == null || !Files.isRegularFile(suiteJson)) {
            return ids;
        }
        try {
            JsonObject suite = JsonParser.parseString(new String(Files.readAllBytes(suiteJson), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            for (JsonElement c : suite.getAsJsonArray("classes")) {
                c.getAsJsonObject().getAsJsonArray("tests").forEach(ids::add);
            }
        } catch (IOException | RuntimeException e) {
            return ids;
        }
        return ids;
    }

    /**
     * Each record file of {@code dir} ({@code <run id>.json}) as the engine reads it ({@code file},
     * {@code text}), in name order; other files (a write under way, history.json) are left out.
     */
    public static List<JsonObject> read(Path dir) throws MojoExecutionException {
        List<Path> files = new ArrayList<>();
        try (java.util.stream.Stream<Path> list = Files.list(dir)) {
            list.filter(p -> NAME.matcher(p.getFileName().toString()).matches() && Files.isRegularFile(p))
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            throw new MojoExecutionException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        List<JsonObject> out = new ArrayList<>();
        for (Path f : files) {
            JsonObject o = new JsonObject();
            o.addProperty("file", f.toString());
            try {
                o.addProperty("text", new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new MojoExecutionException("cannot read " + f + ": " + e.getMessage(), e);
            }
            out.add(o);
        }
        return out;
    }

    /** A patch for {@code tests}: its status, file and whether the run applied it. */
    public static void patch(JsonObject record, List<String> tests, String status, String patch, boolean applied) {
        JsonObject p = new JsonObject();
        p.add("tests", Json.WIRE.toJsonTree(tests));
        p.addProperty("status", status);
        if (patch != null) {
            p.addProperty("patch", patch);
        }
        p.addProperty("applied", applied);
        record.getAsJsonArray("patches").add(p);
    }

    /** A flaky test (or audit finding) of {@code kind}. */
    public static void found(JsonObject record, String test, String kind) {
        JsonArray tests = record.getAsJsonArray("tests");
        for (JsonElement e : tests) {
            if (e.getAsJsonObject().get("test").getAsString().equals(test)) {
                return;
            }
        }
        JsonObject t = new JsonObject();
        t.addProperty("test", test);
        t.addProperty("kind", kind);
        tests.add(t);
    }

    /** The output of {@code git args...} in the module's directory, trimmed; null when git fails. */
    private String git(String... args) {
        return git(basedir, args);
    }

    /** The output of {@code git args...} in {@code dir}, trimmed; null when git fails or takes over 10 s. */
    static String git(Path dir, String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.add("-C");
        command.add(dir.toString());
        command.addAll(List.of(args));
        Path output = null;
        try {
            output = Files.createTempFile("odrust-git", ".out");
            Process p = new ProcessBuilder(command)
                    .redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(Files.readAllBytes(output), StandardCharsets.UTF_8).trim() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException ignored) {
                    // a temporary file of the OS's temporary directory
                }
            }
        }
    }
}
