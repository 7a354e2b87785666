package io.github.odrust.agent;

import io.github.odrust.agent.runner.Agent;
import io.github.odrust.agent.runner.EventWriter;
import java.nio.file.Paths;

/**
 * {@code java -cp <test classpath>:odrust-jvm-agent.jar io.github.odrust.agent.Main <plan-file>}: runs
 * the plan with the {@link io.github.odrust.agent.runner runner}. This class name is on every test
 * JVM's command line (the Maven plugin starts it), so it stays here.
 */
public final class Main {
    private Main() {}

    /** What every run does first, done while waiting: none of it runs code of the module or of JUnit. */
    private static final String[] RUNNER = {
        "io.github.odrust.agent.runner.Agent",
        "io.github.odrust.agent.format.PlanFile",
        "io.github.odrust.agent.format.PlanFile$Segment",
        "io.github.odrust.agent.runner.Context",
        "io.github.odrust.agent.runner.Json",
        "io.github.odrust.agent.runner.Framework",
    };

    /**
     * Loads (without initializing) the runner's first classes and starts the JVM's management
     * clock and lambda machinery, which every run's first event uses.
     */
    static void warmUp() {
        EventWriter.uptimeMs();
        Runnable lambda = () -> {};
        lambda.run();
        ClassLoader loader = Main.class.getClassLoader();
        for (String name : RUNNER) {
            load(name, loader);
        }
        for (String jar : frameworkJars()) {
            try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar)) {
                java.util.Enumeration<java.util.jar.JarEntry> entries = file.entries();
                while (entries.hasMoreElements()) {
                    String name = entries.nextElement().getName();
                    if (name.endsWith(".class")
                            && !name.startsWith("META-INF/")
                            && !name.endsWith("module-info.class")) {
                        load(name.substring(0, name.length() - 6).replace('/', '.'), loader);
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // only a head start
            }
        }
    }

    /** Loads {@code name} without initializing it: no code of it runs. */
    private static void load(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
        } catch (Throwable e) {
            // only a head start: the run loads it when it needs it
        }
    }

    /** The test framework's jars on this JVM's class path (the manifest jar's Class-Path). */
    static java.util.List<String> frameworkJars() {
        java.util.List<String> jars = new java.util.ArrayList<String>();
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (java.util.jar.JarFile file = new java.util.jar.JarFile(entry)) {
                java.util.jar.Manifest manifest = file.getManifest();
                String path =
                        manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
                if (path == null) {
                    continue;
                }
                for (String url : path.trim().split("\\s+")) {
                    // relative to the manifest jar
                    java.net.URI base =
                            new java.io.File(entry).getAbsoluteFile().toURI();
                    String jar = new java.io.File(base.resolve(url)).getPath();
                    if (io.github.odrust.agent.serve.IsolatingLoader.isFramework(jar)) {
                        jars.add(jar);
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // no manifest class path: nothing to load ahead
            }
        }
        return jars;
    }

    /**
     * One line of the standard input, read a byte at a time so nothing after it is taken from the
     * tests; null at its end (the Maven that started this JVM is gone, or did not need it).
     */
    static String awaitPlan() {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        try {
            for (int b = System.in.read(); b != '\n'; b = System.in.read()) {
                if (b < 0) {
                    return null;
                }
                line.write(b);
            }
        } catch (java.io.IOException e) {
            return null;
        }
        return new String(line.toByteArray(), java.nio.charset.StandardCharsets.UTF_8);
    }

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("--serve")) {
            // -Dodrust.isolation=classloader: one JVM runs plan after plan (docs/isolation.md).
            int status = io.github.odrust.agent.serve.Server.serve();
            System.out.flush();
            System.err.flush();
            System.exit(status);
        }
        if (args.length != 1) {
            System.err.println(
                    "usage: java -cp <test-classpath>:odrust-jvm-agent.jar io.github.odrust.agent.Main <plan-file>");
            System.exit(2);
        }
        String plan = args[0];
        if (plan.equals("--await")) {
            // A fresh JVM started ahead of need (docs/isolation.md, "Fresh JVMs started ahead"):
            // booted, no class of the module loaded; the plan file's path comes on the standard
            // input, and the JVM's clock counts from then.
            warmUp();
            plan = awaitPlan();
            if (plan == null) {
                System.exit(0);
            }
            Long now = EventWriter.uptimeMs();
            EventWriter.clockOrigin(now == null ? 0 : now);
            // The command line the JVM would have had, started for this plan.
            String command = System.getProperty("sun.java.command");
            if (command != null && command.endsWith(" --await")) {
                System.setProperty(
                        "sun.java.command", command.substring(0, command.length() - "--await".length()) + plan);
            }
        }
        int status = Agent.run(Paths.get(plan));
        System.out.flush();
        System.err.flush();
        // end non-daemon threads the tests may have left behind
        System.exit(status);
    }
}
