package io.github.odrust.maven;

import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.core.Words;
import io.github.odrust.maven.run.DiscoveredSuite;
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
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        int tests = 0;
        int dynamic = 0;
        for (DiscoveredSuite.ClassRecord record : suite.classes) {
            int n = record.tests.size();
            tests += n;
            dynamic += record.dynamic.size();
            getLog().info(String.format(
                    "  %-6s %3d  %s%s",
                    record.framework, n, record.className, record.reorderable ? "" : "  (fixed method order)"));
        }
        Path original = Discovery.writeSuite(suite, out);
        getLog().info(module.id() + ": " + Words.count(tests, "test") + " in "
                + Words.count(suite.classes.size(), "class") + " ("
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
