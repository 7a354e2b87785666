package io.github.odrust.maven;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.diagnose.Diagnoser;
import io.github.odrust.maven.run.DiscoveredSuite;
import io.github.odrust.maven.run.Discovery;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Execute;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Names the static state a polluter leaves behind for a victim (or a state-setter leaves for a
 * brittle): captures the static fields right before the test in its failing and passing orders,
 * diffs them, and confirms by restoring the differing fields which of them is the polluted state.
 * Writes {@code target/odrust/diagnose/diagnose.json} and {@code polluted_state} in report.json.
 */
@Mojo(name = "diagnose", requiresDependencyResolution = ResolutionScope.TEST, threadSafe = true)
@Execute(phase = LifecyclePhase.TEST_COMPILE)
public class DiagnoseMojo extends AbstractOdrustMojo {
    /** Diagnose only this order-dependent test of report.json, e.g. com.acme.CartTest#isEmpty. */
    @Parameter(property = "odrust.test")
    protected String test;

    /** Test JVMs one test's diagnosis may spend (two captures, then restores); the engine's default when unset. */
    @Parameter(property = "odrust.diagnose.budget")
    protected Integer budget;

    /** Comma-separated class-name prefixes captured besides the module's own classes, e.g. com.acme.lib. */
    @Parameter(property = "odrust.diagnose.include")
    protected String include;

    /** Objects, elements and entries one capture may write before it marks the rest truncated. */
    @Parameter(property = "odrust.diagnose.limit", defaultValue = "200000")
    protected int limit;

    @Override
    protected void executeMojo() throws MojoExecutionException, MojoFailureException {
        if (budget != null && budget < 3) {
            throw new MojoFailureException(
                    "odrust.diagnose.budget must be at least 3 test runs (two captures and a restore)," + " not "
                            + budget);
        }
        if (limit < 1) {
            throw new MojoFailureException("odrust.diagnose.limit must be at least 1, not " + limit);
        }
        Diagnoser.Settings s = new Diagnoser.Settings();
        s.test = test;
        s.budget = budget;
        s.captureLimit = limit;
        s.include.addAll(io.github.odrust.maven.core.ListSetting.classPrefixes("odrust.diagnose.include", include));
        Engine engine = engine();
        Path out = outputDirectory.toPath();
        Diagnoser.checkInput(out, engine.version(), test);
        TestModule module = testModule();
        DiscoveredSuite suite = Discovery.discover(module, out.resolve("discovery"), getLog());
        List<JsonObject> verdicts = new Diagnoser(engine, module, suite, out, s, getLog()).run();
        for (JsonObject v : verdicts) {
            print(v);
        }
        if (!verdicts.isEmpty()) {
            getLog().info("details: " + out.resolve("diagnose").resolve("diagnose.json") + " (and polluted_state in "
                    + out.resolve("report.json") + ")");
        }
    }

    private void print(JsonObject v) {
        lines(v).forEach(getLog()::info);
    }

    /** The console lines of one verdict. */
    static List<String> lines(JsonObject v) {
        List<String> out = new java.util.ArrayList<>();
        String status = v.get("status").getAsString();
        out.add(String.format(
                "%-13s %s: %s",
                status, v.get("test").getAsString(), v.get("reason").getAsString()));
        int oneSided = 0;
        for (JsonElement fe : v.getAsJsonArray("fields")) {
            JsonObject f = fe.getAsJsonObject();
            boolean confirmed = f.get("confirmed").getAsBoolean();
            // Fields of classes initialized (or loaded) in one order only say little one by one:
            // the first few are shown, the rest counted (all are in diagnose.json).
            if (!confirmed && oneSided(f) && ++oneSided > ONE_SIDED_SHOWN) {
                continue;
            }
            boolean noise = f.has("noise") && f.get("noise").getAsBoolean();
            String mark = confirmed ? "  polluted " : noise ? "  noise    " : "  differs  ";
            out.add(mark + f.get("field").getAsString() + ": " + line(f.get("failing")) + " (failing order) vs "
                    + line(f.get("passing")) + " (passing)"
                    + (f.get("restorable").getAsBoolean() ? "" : "; cannot be restored: " + str(f.get("why_not"))));
            for (JsonElement de : f.getAsJsonArray("differences")) {
                JsonObject d = de.getAsJsonObject();
                if (!d.get("path").getAsString().equals(f.get("field").getAsString())) {
                    out.add("      " + line(d.get("path")) + ": " + line(d.get("failing")) + " vs "
                            + line(d.get("passing")));
                }
            }
            if (f.has("noise_paths") && f.getAsJsonArray("noise_paths").size() > 0) {
                List<String> paths = new java.util.ArrayList<>();
                f.getAsJsonArray("noise_paths").forEach(p -> paths.add(line(p)));
                out.add("      differs between two passing runs too at: " + String.join(", ", paths));
            }
        }
        if (oneSided > ONE_SIDED_SHOWN) {
            out.add("  and " + (oneSided - ONE_SIDED_SHOWN) + " more fields of classes initialized in one order"
                    + " only (listed in diagnose.json)");
        }
        return out;
    }

    /** Fields of classes initialized in one order only that the console lists per verdict. */
    static final int ONE_SIDED_SHOWN = 3;

    private static boolean oneSided(JsonObject f) {
        for (String side : new String[] {"failing", "passing"}) {
            String value = str(f.get(side));
            if (value.equals("(not initialized)") || value.equals("(not loaded)")) {
                return true;
            }
        }
        return false;
    }

    private static String str(JsonElement e) {
        return e == null || e.isJsonNull() ? "" : e.getAsString();
    }

    /** A value on one console line: line breaks shown as \n. */
    private static String line(JsonElement e) {
        return str(e).replace("\r", "\\r").replace("\n", "\\n");
    }
}
