package io.github.odrust.maven;

import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.Json;
import io.github.odrust.maven.detect.ReportWriter;
import io.github.odrust.maven.history.RunRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Shows a module's odrust runs over time (docs/history.md): reads the run records of {@code
 * -Dodrust.history=DIR} and writes {@code target/odrust/history/history.json} and {@code
 * history.html}: a test x run grid, each cause's first and last sighting, the run (and commit) from
 * which a test stopped being found, after which patch, and the trend of flaky tests per run.
 */
@Mojo(name = "history", threadSafe = true)
public class HistoryMojo extends AbstractOdrustMojo {
    /** The directory of run records (as detect, repair and audit were given it), relative to where Maven ran. */
    @Parameter(property = "odrust.history")
    protected String history;

    /** Reads and writes odrust's files only: no test JVM, so no module tests lock. */
    @Override
    protected boolean runsTests() {
        return false;
    }

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        Path dir = RunRecords.directory(history, executionRoot());
        if (dir == null) {
            throw new MojoFailureException("odrust:history needs -Dodrust.history=DIR: the directory that"
                    + " odrust:detect, repair and audit were given with -Dodrust.history (e.g. .odrust-history)");
        }
        if (!Files.isDirectory(dir)) {
            throw new MojoFailureException("odrust.history: " + dir + " is not a directory; run odrust:detect"
                    + " with -Dodrust.history=" + history + " first (or give the directory your CI restored)");
        }
        JsonObject request = new JsonObject();
        request.add("records", Json.WIRE.toJsonTree(RunRecords.read(dir)));
        request.addProperty("module", project.getGroupId() + ":" + project.getArtifactId());
        Engine engine = engine();
        JsonObject rendered = engine.call("history_report", request);
        Path out = outputDirectory.toPath().resolve("history");
        try {
            Files.createDirectories(out);
            ReportWriter.atomicWrite(out.resolve("history.json"), Json.WIRE.toJson(rendered.get("view")) + "\n");
            ReportWriter.atomicWrite(
                    out.resolve("history.html"), rendered.get("html").getAsString());
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write the history in " + out + ": " + e.getMessage(), e);
        }
        for (String line : rendered.get("text").getAsString().split("\n")) {
            if (!line.isEmpty()) {
                getLog().info(line);
            }
        }
        getLog().info("history: " + out.resolve("history.json") + ", " + out.resolve("history.html"));
    }
}
