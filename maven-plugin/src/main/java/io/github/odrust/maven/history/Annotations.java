package io.github.odrust.maven.history;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.Log;

/**
 * Findings where developers look (docs/history.md, "Annotations"): one annotation per cause of
 * report.json at its first test's failing line (the test's own frame of the failure's stack trace
 * in the failing experiment, else the test method's declaration), and one per verified patch at
 * the file it changes. {@code github}: workflow commands on standard output ({@code ::error
 * file=...,line=...::...}), which a pull request shows inline; {@code gitlab}: a Code Quality
 * report, {@code target/odrust/odrust-code-quality.json}, which a merge request shows.
 */
public final class Annotations {
    /** The kinds {@code -Dodrust.annotations} takes. */
    public static final List<String> KINDS = List.of("github", "gitlab");

    private static final Pattern FRAME = Pattern.compile("\\tat ([\\w$.]+)\\.([\\w$<>]+)\\(([^:()]+\\.java):(\\d+)\\)");

    /** One annotation. */
    static final class Note {
        String level;
        String title;
        String message;
        /** Relative to the repository's root, or null. */
        String file;
        /** What it is about, the same from run to run: its test. */
        String key;

        int line;
    }

    private Annotations() {}

    /** Refuses a kind that is not one ({@code -Dodrust.annotations}); null or empty is none. */
    public static String kind(String value) throws MojoFailureException {
        if (value == null || value.trim().isEmpty()) {
            return null;
        }
        String k = value.trim().toLowerCase(Locale.ROOT);
        if (!KINDS.contains(k)) {
            throw new MojoFailureException("odrust.annotations=" + value + " is not a kind of annotation: use github"
                    + " (workflow commands a pull request shows inline) or gitlab (a Code Quality report)");
        }
        return k;
    }

    /**
     * The annotations of {@code report} (report.json of the run in {@code out}), for tests whose
     * sources are under {@code sourceRoots}, with paths relative to {@code repoRoot}.
     */
    static List<Note> notes(JsonObject report, Path out, Path basedir, List<File> sourceRoots, Path repoRoot) {
        List<Note> notes = new ArrayList<>();
        if (!report.has("causes")) {
            return notes;
        }
        for (JsonElement ce : report.getAsJsonArray("causes")) {
            JsonObject cause = ce.getAsJsonObject();
            JsonArray tests = cause.getAsJsonArray("tests");
            if (tests.isEmpty()) {
                continue;
            }
            String test = tests.get(0).getAsString();
            if (!test.contains("#")) {
                continue;
            }
            JsonObject flaky = flaky(report, test);
            Note n = new Note();
            n.key = test;
            n.level = "error";
            n.title = "odrust: order-dependent test (cause " + cause.get("id").getAsInt() + ")";
            StringBuilder m = new StringBuilder();
            m.append(test).append(" is a ").append(flaky == null ? "flaky test" : str(flaky, "kind"));
            m.append(": ").append(str(cause, "title").replace("`", ""));
            if (tests.size() > 1) {
                m.append(" (").append(tests.size()).append(" tests)");
            }
            if (flaky != null
                    && flaky.has("flake_rate")
                    && flaky.get("flake_rate").isJsonObject()) {
                JsonElement rate = flaky.getAsJsonObject("flake_rate").get("all_orders");
                if (rate != null && rate.isJsonPrimitive()) {
                    m.append(String.format(Locale.ROOT, "; fails in %.0f%% of orders", rate.getAsDouble() * 100));
                }
            }
            if (flaky != null && flaky.has("reproduce")) {
                m.append("\nReproduce: ").append(str(flaky, "reproduce"));
            }
            n.message = m.toString();
            String cls = test.substring(0, test.indexOf('#'));
            String method = test.substring(test.indexOf('#') + 1).replaceAll("[(\\[].*$", "");
            Path source = source(cls, sourceRoots);
            if (source != null) {
                n.file = relative(repoRoot, source);
                int line = flaky == null ? -1 : failingLine(basedir, out, flaky, test, cls);
                n.line = line > 0 ? line : declarationLine(source, method);
            }
            notes.add(n);
            if (cause.has("fixes")) {
                for (JsonElement fe : cause.getAsJsonArray("fixes")) {
                    JsonObject fix = fe.getAsJsonObject();
                    if (!"patched".equals(str(fix, "status")) || !fix.has("file")) {
                        continue;
                    }
                    Note p = new Note();
                    p.key = test;
                    p.level = "notice";
                    p.title = "odrust: verified patch for cause "
                            + cause.get("id").getAsInt();
                    p.file = relative(repoRoot, basedir.resolve(str(fix, "file")));
                    p.message = "odrust:repair made a verified patch here for " + test
                            + (fix.has("apply") ? "; apply it with: " + str(fix, "apply") : "");
                    notes.add(p);
                }
            }
        }
        return notes;
    }

    /**
     * Prints (github) or writes (gitlab) the annotations of the report in {@code out}, of the module
     * in {@code basedir}; paths relative to the git work tree's top (else {@code root}, where Maven
     * ran).
     */
    public static void write(
            String kind, Path out, Path basedir, List<File> sourceRoots, Path root, PrintStream stdout, Log log)
            throws MojoExecutionException {
        String top = RunRecords.git(basedir, "rev-parse", "--show-toplevel");
        Path repoRoot = top == null || top.isEmpty() ? root : Path.of(top);
        JsonObject report;
        try {
            report = JsonParser.parseString(
                            new String(Files.readAllBytes(out.resolve("report.json")), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException("odrust annotations: cannot read " + out.resolve("report.json"), e);
        }
        List<Note> notes = notes(report, out, basedir, sourceRoots, repoRoot);
        if ("github".equals(kind)) {
            for (Note n : notes) {
                stdout.println(github(n));
            }
            stdout.flush();
            log.info("odrust annotations: " + notes.size() + " GitHub workflow command(s) printed");
            return;
        }
        JsonArray quality = new JsonArray();
        for (Note n : notes) {
            JsonObject o = new JsonObject();
            o.addProperty("description", n.title + ": " + n.message.replace("\n", " "));
            o.addProperty("check_name", "error".equals(n.level) ? "odrust-order-dependent" : "odrust-patch");
            // the same finding in the next run: the same fingerprint (not its rate or its count)
            o.addProperty(
                    "fingerprint",
                    io.github.odrust.maven.run.CodeDigest.sha256(
                            (n.level + "\n" + n.key + "\n" + n.file).getBytes(StandardCharsets.UTF_8)));
            o.addProperty("severity", "error".equals(n.level) ? "major" : "info");
            JsonObject location = new JsonObject();
            location.addProperty("path", n.file == null ? relative(repoRoot, basedir.resolve("pom.xml")) : n.file);
            JsonObject lines = new JsonObject();
            lines.addProperty("begin", Math.max(1, n.line));
            location.add("lines", lines);
            o.add("location", location);
            quality.add(o);
        }
        Path file = out.resolve("odrust-code-quality.json");
        try {
            io.github.odrust.maven.detect.ReportWriter.atomicWrite(file, Json.WIRE.toJson(quality) + "\n");
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + file + ": " + e.getMessage(), e);
        }
        log.info("odrust annotations: " + notes.size() + " in " + file + " (GitLab: artifacts:reports:codequality)");
    }

    /** The workflow command of {@code n}. */
    static String github(Note n) {
        StringBuilder s = new StringBuilder("::").append(n.level).append(' ');
        List<String> props = new ArrayList<>();
        if (n.file != null) {
            props.add("file=" + property(n.file));
            if (n.line > 0) {
                props.add("line=" + n.line);
            }
        }
        props.add("title=" + property(n.title));
        s.append(String.join(",", props)).append("::").append(data(n.message));
        return s.toString();
    }

    private static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }

    /** The flaky entry of {@code test} in report.json. */
    private static JsonObject flaky(JsonObject report, String test) {
        if (report.has("flaky")) {
            for (JsonElement e : report.getAsJsonArray("flaky")) {
                if (test.equals(str(e.getAsJsonObject(), "test"))) {
                    return e.getAsJsonObject();
                }
            }
        }
        return null;
    }

    /**
     * The line of {@code test}'s own frame in its failure's stack trace in its failing experiment
     * ({@code detect/exp-N/events-*.jsonl} of the run whose {@code orders/} holds its failing order:
     * a shard's for a merged report); -1 when not known.
     */
    static int failingLine(Path basedir, Path out, JsonObject flaky, String test, String cls) {
        if (!flaky.has("failing_experiment")) {
            return -1;
        }
        Path run = out;
        if (flaky.has("failing_order") && flaky.get("failing_order").isJsonPrimitive()) {
            Path orders =
                    basedir.resolve(flaky.get("failing_order").getAsString()).getParent();
            if (orders != null && orders.getParent() != null) {
                run = orders.getParent();
            }
        }
        Path exp = run.resolve("detect")
                .resolve("exp-" + flaky.get("failing_experiment").getAsInt());
        if (!Files.isDirectory(exp)) {
            return -1;
        }
        List<Path> events = new ArrayList<>();
        try (Stream<Path> list = Files.list(exp)) {
            list.filter(p -> p.getFileName().toString().startsWith("events"))
                    .sorted()
                    .forEach(events::add);
        } catch (IOException e) {
            return -1;
        }
        String top = cls.contains("$") ? cls.substring(0, cls.indexOf('$')) : cls;
        for (Path f : events) {
            try {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.contains("\"trace\"") || !line.contains(test)) {
                        continue;
                    }
                    JsonObject ev = JsonParser.parseString(line).getAsJsonObject();
                    if (!test.equals(str(ev, "test"))
                            || !ev.has("trace")
                            || ev.get("trace").isJsonNull()) {
                        continue;
                    }
                    Matcher m = FRAME.matcher(ev.get("trace").getAsString());
                    while (m.find()) {
                        String frameClass = m.group(1);
                        String frameTop = frameClass.contains("$")
                                ? frameClass.substring(0, frameClass.indexOf('$'))
                                : frameClass;
                        if (frameTop.equals(top)) {
                            return Integer.parseInt(m.group(4));
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // a torn line of a killed JVM: the declaration line instead
            }
        }
        return -1;
    }

    /** The line declaring {@code method} in {@code source} (its first {@code name(} after a type); 0 when not found. */
    static int declarationLine(Path source, String method) {
        try {
            List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
            Pattern decl = Pattern.compile("\\b(void|[\\w<>\\[\\]]+)\\s+" + Pattern.quote(method) + "\\s*\\(");
            for (int i = 0; i < lines.size(); i++) {
                if (decl.matcher(lines.get(i)).find()) {
                    return i + 1;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    /** The source file of {@code cls} under one of {@code roots} (as odrust:repair finds it), or null. */
    static Path source(String cls, List<File> roots) {
        try {
            return new io.github.odrust.maven.repair.JavaSources(roots, StandardCharsets.UTF_8).find(cls);
        } catch (io.github.odrust.maven.repair.JavaSources.SourceException e) {
            return null;
        }
    }

    private static String relative(Path root, Path file) {
        Path r = root.toAbsolutePath().normalize();
        Path f = file.toAbsolutePath().normalize();
        return (f.startsWith(r) ? r.relativize(f) : f).toString().replace('\\', '/');
    }

    private static String str(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e == null || e.isJsonNull() ? "" : e.getAsString();
    }
}
