package io.github.odrust.maven.repair.od;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.maven.core.TestModule;
import io.github.odrust.maven.fork.ManifestJar;
import io.github.odrust.maven.fork.SharedJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;

/**
 * The shared JVM of odrust:repair with {@code odrust.isolation=classloader} (docs/isolation.md):
 * the candidates' minimization runs in it, each order in fresh class loaders over the candidate's
 * classes and the module's test classpath, once the module's last detect passed the isolation
 * check; every check of a minimal patch still runs in a fresh JVM. One at a time; a retired one
 * (100 orders, or what it could not undo) is replaced by a new one for the next order.
 */
final class RepairJvms implements AutoCloseable {
    private final TestModule module;
    private final Path dir;
    private final Path jar;
    private SharedJvm current;
    private int started;

    private RepairJvms(TestModule module, Path dir) throws MojoExecutionException {
        this.module = module;
        this.dir = dir;
        this.jar = dir.resolve("shared-classpath.jar");
        try {
            Files.createDirectories(dir);
            ManifestJar.write(jar, module.classpath, "io.github.odrust.agent.Main");
        } catch (IOException e) {
            throw new MojoExecutionException("cannot write " + jar + ": " + e.getMessage(), e);
        }
    }

    /**
     * The shared JVMs for a repair run, or null (every experiment in fresh JVMs, said on the
     * console) when {@code isolation} is not {@code classloader} or the module's last detect did
     * not pass the isolation check ({@code detect/isolation-check.json} under {@code out}).
     */
    static RepairJvms of(String isolation, TestModule module, Path out, Path dir, Log log)
            throws MojoExecutionException {
        if (!"classloader".equals(isolation)) {
            return null;
        }
        Path check = out.resolve("detect").resolve("isolation-check.json");
        String why = checked(check);
        if (why != null) {
            log.info("odrust repair: every experiment runs in a fresh JVM (odrust.isolation=classloader needs " + why
                    + ")");
            return null;
        }
        log.info("odrust repair: candidates are minimized in shared JVMs with fresh class loaders (the last detect"
                + " passed the isolation check); every check of a minimal patch runs in a fresh JVM");
        return new RepairJvms(module, dir);
    }

    /** Null when {@code check} says the module passed the isolation check; else what is missing. */
    static String checked(Path check) {
        if (!Files.isRegularFile(check)) {
            return "a detect run with it that passed the isolation check; " + check + " does not exist";
        }
        try {
            JsonObject o = JsonParser.parseString(new String(Files.readAllBytes(check), StandardCharsets.UTF_8))
                    .getAsJsonObject();
            if (o.has("used")
                    && o.get("used").isJsonPrimitive()
                    && o.get("used").getAsBoolean()) {
                return null;
            }
            return "a module that passed the isolation check; the last detect's did not (" + check + ")";
        } catch (IOException | RuntimeException e) {
            return "a readable isolation check; " + check + " cannot be read (" + e.getMessage() + ")";
        }
    }

    /** A shared JVM that can take the next order: the current one, or a new one. */
    SharedJvm jvm() throws IOException {
        if (current != null && !current.usable()) {
            current.close();
            current = null;
        }
        if (current == null) {
            started++;
            current = SharedJvm.start(module.jvm, module.agentJar, jar, dir.resolve("shared-jvm-" + started + ".log"));
        }
        return current;
    }

    @Override
    public void close() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
