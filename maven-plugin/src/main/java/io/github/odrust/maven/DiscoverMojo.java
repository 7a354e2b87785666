package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.run.Discovery;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Lists the module's tests as Surefire would run them and writes {@code target/odrust/suite.json}
 * and the original order, {@code target/odrust/orders/original.txt}.
 */
@Mojo(name = "discover", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class DiscoverMojo extends AbstractOdrustMojo {
    @Override
    protected void executeMojo() throws MojoExecutionException {
        TestModule module = testModule();
        Path out = outputDirectory.toPath();
        JsonObject suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        int tests = 0;
        int dynamic = 0;
        for (JsonElement c : suite.getAsJsonArray("classes")) {
            JsonObject record = c.getAsJsonObject();
            int n = record.getAsJsonArray("tests").size();
            tests += n;
            dynamic += record.has("dynamic") ? record.getAsJsonArray("dynamic").size() : 0;
            getLog().info(String.format(
                    "  %-6s %3d  %s%s",
                    record.get("framework").getAsString(),
                    n,
                    record.get("class").getAsString(),
                    record.get("reorderable").getAsBoolean() ? "" : "  (fixed method order)"));
        }
        Path original = Discovery.writeSuite(suite, out);
        getLog().info(module.id() + ": " + Words.count(tests, "test") + " in "
                + Words.count(suite.getAsJsonArray("classes").size(), "class") + " ("
                + String.join(" + ", module.frameworks) + ")");
        if (dynamic > 0) {
            getLog().info(dynamic
                    + " of these are JUnit 5 parameterized, repeated or factory methods: each counts once here,"
                    + " while Surefire counts every invocation; a class disabled as a whole counts each of its tests here, once in"
                    + " Surefire's report.");
        }
        getLog().info("original order: " + original);
    }
}
