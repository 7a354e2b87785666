package io.github.odrust.maven.diagnose;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;

/**
 * {@code target/odrust/diagnose/diagnose.json} (schema 1): the latest verdict per test, kept
 * across runs (a run for one test leaves the others' entries), and the {@code polluted_state}
 * entry of report.json's flaky tests.
 */
final class DiagnoseFile {
    static final int SCHEMA_VERSION = 1;

    private DiagnoseFile() {}

    static JsonObject read(Path file, String module, String version, java.util.function.Consumer<String> say) {
        JsonObject o = null;
        if (Files.isRegularFile(file)) {
            String why;
            try {
                JsonElement e = JsonParser.parseString(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
                JsonObject f = e.isJsonObject() ? e.getAsJsonObject() : null;
                if (f == null || !f.has("entries") || !f.get("entries").isJsonArray()) {
                    why = "holds no diagnoses";
                } else if (!f.has("odrust_version")
                        || !version.equals(f.get("odrust_version").getAsString())) {
                    why = "was written by another odrust version";
                } else if (f.has("module") && !module.equals(f.get("module").getAsString())) {
                    why = "is of the module " + f.get("module").getAsString();
                } else {
                    o = f;
                    why = null;
                }
            } catch (IOException | RuntimeException unreadable) {
                why = "cannot be read (" + unreadable.getMessage() + ")";
            }
            if (why != null) {
                say.accept(io.github.odrust.maven.core.SetAside.move(file, why));
            }
        }
        if (o == null) {
            o = new JsonObject();
            o.addProperty("schema_version", SCHEMA_VERSION);
            o.addProperty("odrust_version", version);
            o.addProperty("module", module);
            o.add("entries", new JsonArray());
        }
        return o;
    }

    static void put(JsonObject file, JsonObject verdict) {
        JsonArray entries = file.getAsJsonArray("entries");
        String test = verdict.get("test").getAsString();
        for (int i = 0; i < entries.size(); i++) {
            if (test.equals(entries.get(i).getAsJsonObject().get("test").getAsString())) {
                entries.set(i, verdict);
                return;
            }
        }
        entries.add(verdict);
    }

    static void write(Path file, JsonObject o) throws MojoExecutionException {
        try {
            io.github.odrust.maven.detect.ReportWriter.atomicWrite(file, Json.PRETTY_WITHOUT_NULLS.toJson(o) + "\n");
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sets {@code polluted_state} of the test's entry in report.json (other content unchanged) and
     * renders report.html and the Surefire XML again, which show it.
     */
    static void intoReport(Path report, JsonObject verdict, io.github.odrust.engine.Engine engine)
            throws MojoExecutionException {
        try {
            JsonObject json = JsonParser.parseString(new String(Files.readAllBytes(report), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            String test = verdict.get("test").getAsString();
            JsonObject summary = json.has("summary") ? json.getAsJsonObject("summary") : json;
            JsonArray flaky = summary.getAsJsonArray("flaky");
            if (flaky == null) {
                return;
            }
            for (JsonElement f : flaky) {
                if (test.equals(f.getAsJsonObject().get("test").getAsString())) {
                    f.getAsJsonObject().add("polluted_state", verdict);
                }
            }
            io.github.odrust.maven.detect.ReportWriter.rewrite(engine, json, report.getParent());
        } catch (IOException | RuntimeException e) {
            throw new MojoExecutionException(
                    "cannot add the diagnosis of " + verdict.get("test") + " to " + report + ": " + e.getMessage(), e);
        }
    }
}
