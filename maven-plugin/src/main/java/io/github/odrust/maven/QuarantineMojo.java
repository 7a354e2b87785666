package io.github.odrust.maven;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.history.Quarantine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Quarantines the causes the last {@code odrust:detect} found that no applied patch fixed
 * (docs/history.md, "Quarantine"): adds an entry per cause to the quarantine file, with the owner,
 * expiry and reason given, so that {@code failOnFlaky} does not fail on them until that date. A
 * cause of one polluter (state-setter) is quarantined by it, so its later victims are covered too.
 */
@Mojo(name = "quarantine", threadSafe = true)
public class QuarantineMojo extends AbstractOdrustMojo {
    /** The quarantine file, relative to the module. */
    @Parameter(property = "odrust.quarantine", defaultValue = ".odrust/quarantine.json")
    protected String quarantine;

    /** Who fixes the quarantined causes (required). */
    @Parameter(property = "odrust.quarantine.owner")
    protected String owner;

    /** The last day they stay quarantined, {@code YYYY-MM-DD} (required). */
    @Parameter(property = "odrust.quarantine.expires")
    protected String expires;

    /** Why they wait. */
    @Parameter(property = "odrust.quarantine.reason", defaultValue = "found by odrust:detect, not fixed yet")
    protected String reason;

    /** An issue or pull request about them. */
    @Parameter(property = "odrust.quarantine.link")
    protected String link;

    /** The day the expiry must not be before ({@code YYYY-MM-DD}); today (UTC) when unset. */
    @Parameter(property = "odrust.quarantine.today")
    protected String quarantineToday;

    /** Reads and writes odrust's files only: no test JVM, so no module tests lock. */
    @Override
    protected boolean runsTests() {
        return false;
    }

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (owner == null
                || owner.trim().isEmpty()
                || expires == null
                || expires.trim().isEmpty()) {
            throw new MojoFailureException("odrust:quarantine needs -Dodrust.quarantine.owner=<who fixes them> and"
                    + " -Dodrust.quarantine.expires=<YYYY-MM-DD, the last day they are accepted>");
        }
        Path reportFile = outputDirectory.toPath().resolve("report.json");
        if (!Files.isRegularFile(reportFile)) {
            throw new MojoFailureException("odrust:quarantine reads the causes of the last odrust:detect, and "
                    + reportFile + " does not exist: run mvn odrust:detect first");
        }
        JsonObject report;
        try {
            report = JsonParser.parseString(new String(Files.readAllBytes(reportFile), StandardCharsets.UTF_8))
                    .getAsJsonObject();
        } catch (IOException | RuntimeException e) {
            throw new MojoFailureException(
                    "cannot read " + reportFile + " (" + e.getMessage() + "); run mvn odrust:detect again");
        }
        Path file = Quarantine.file(quarantine, project.getBasedir().toPath());
        JsonObject request = new JsonObject();
        request.addProperty("file", file.toString());
        try {
            if (Files.isRegularFile(file)) {
                request.addProperty("text", new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new MojoExecutionException("cannot read " + file + ": " + e.getMessage(), e);
        }
        request.addProperty("today", Quarantine.today(quarantineToday));
        request.addProperty("owner", owner.trim());
        request.addProperty("expires", expires.trim());
        request.addProperty("reason", reason);
        if (link != null && !link.trim().isEmpty()) {
            request.addProperty("link", link.trim());
        }
        JsonArray causes = new JsonArray();
        int fixed = 0;
        if (report.has("causes")) {
            for (JsonElement e : report.getAsJsonArray("causes")) {
                JsonObject c = e.getAsJsonObject();
                JsonArray unfixed = unfixed(c);
                if (unfixed.isEmpty()) {
                    fixed++;
                    continue;
                }
                JsonObject o = new JsonObject();
                String role = c.get("role").getAsString();
                o.addProperty("role", role);
                o.add("tests", unfixed);
                String origins = "brittle".equals(role) ? "state_setters" : "polluters";
                o.add("origins", c.has(origins) ? c.get(origins) : new JsonArray());
                causes.add(o);
            }
        }
        request.add("causes", causes);
        Engine engine = engine();
        JsonObject added = engine.call("quarantine_add", request);
        try {
            Files.createDirectories(file.getParent());
            ReportWriter.atomicWrite(file, added.get("text").getAsString());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + file + ": " + e.getMessage(), e);
        }
        for (JsonElement e : added.getAsJsonArray("added")) {
            getLog().info("quarantined " + e.getAsString() + " (owner " + owner.trim() + ", until " + expires.trim()
                    + ")");
        }
        for (JsonElement e : added.getAsJsonArray("covered")) {
            getLog().info("already quarantined: " + e.getAsString());
        }
        getLog().info("odrust quarantine: " + added.getAsJsonArray("added").size() + " entries added to " + file
                + (fixed > 0 ? "; " + fixed + " cause(s) left out: a patch for them was applied" : "")
                + "; commit the file so that every run honours it");
    }

    /** The tests of cause {@code c} that no patch odrust:repair applied covers (a cause repaired in parts). */
    private static JsonArray unfixed(JsonObject c) {
        java.util.Set<String> fixed = new java.util.HashSet<>();
        if (c.has("fixes")) {
            for (JsonElement f : c.getAsJsonArray("fixes")) {
                JsonObject o = f.getAsJsonObject();
                if (o.has("applied") && o.get("applied").getAsBoolean() && o.has("tests")) {
                    o.getAsJsonArray("tests").forEach(t -> fixed.add(t.getAsString()));
                }
            }
        }
        JsonArray out = new JsonArray();
        c.getAsJsonArray("tests").forEach(t -> {
            if (!fixed.contains(t.getAsString())) {
                out.add(t);
            }
        });
        return out;
    }
}
