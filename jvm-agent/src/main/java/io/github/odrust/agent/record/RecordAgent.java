package io.github.odrust.agent.record;

import java.lang.instrument.Instrumentation;

/**
 * {@code -javaagent:<odrust-jvm-agent.jar>=<options-file>}: records which static fields each test
 * reads and writes (DTDetector's dependence-aware strategy), or diagnoses, audits or shuffles as the
 * options say. Never stops the JVM: a bad options file is reported on stderr and nothing is recorded.
 * {@code =serve} (a shared JVM's, docs/isolation.md) does nothing but hand the instrumentation to
 * {@link io.github.odrust.agent.serve.Server}.
 */
public final class RecordAgent {
    private RecordAgent() {}

    public static void premain(String args, Instrumentation inst) {
        // A shared JVM (Main --serve) uses it between orders; a fresh JVM never does.
        try {
            io.github.odrust.agent.serve.Server.instrumentation(inst);
        } catch (Throwable t) {
            // a Server class of another odrust on the classpath: the shared JVM then says so
        }
        if ("serve".equals(args)) {
            return;
        }
        try {
            Options options;
            try {
                options = Options.read(args);
            } catch (Options.BadOptionsException e) {
                System.err.println("odrust-agent: " + e.getMessage() + "; static-field recording is off for this run");
                return;
            }
            if (options.mode.equals("diagnose")) {
                io.github.odrust.agent.capture.Diagnosis.Settings d =
                        new io.github.odrust.agent.capture.Diagnosis.Settings();
                d.roots.addAll(options.roots);
                d.includes.addAll(options.includes);
                d.excludes.addAll(options.excludes);
                d.test = options.test;
                d.occurrence = options.occurrence;
                d.capture = options.capture;
                d.limit = options.captureLimit;
                d.restoreFrom = options.restoreFrom;
                d.restoreFields.addAll(options.restoreFields);
                d.result = options.result;
                d.initialize.addAll(options.initialize);
                d.point = io.github.odrust.agent.capture.Diagnosis.point(options.point);
                io.github.odrust.agent.capture.Diagnosis.activate(d, inst);
                return;
            }
            if (options.mode.equals("audit")) {
                io.github.odrust.agent.capture.Audit.Settings a = new io.github.odrust.agent.capture.Audit.Settings();
                a.classes.roots.addAll(options.roots);
                a.classes.includes.addAll(options.includes);
                a.classes.excludes.addAll(options.excludes);
                a.dir = options.captures;
                a.captureTests.addAll(options.captureTests);
                for (String entry : options.initializeAt) {
                    int sp = entry.indexOf(' ');
                    a.initializeAt
                            .computeIfAbsent(Integer.parseInt(entry.substring(0, sp)), k -> new java.util.ArrayList<>())
                            .add(entry.substring(sp + 1));
                }
                a.traceOnly = options.traceOnly;
                a.limit = options.captureLimit;
                java.nio.file.Files.createDirectories(a.dir);
                io.github.odrust.agent.capture.Audit.activate(a, inst);
                return;
            }
            if (options.mode.equals("shuffle")) {
                io.github.odrust.agent.shuffle.ShuffleAgent.Settings s =
                        new io.github.odrust.agent.shuffle.ShuffleAgent.Settings();
                s.roots.addAll(options.roots);
                s.includes.addAll(options.includes);
                s.seed = options.seed;
                s.only.addAll(options.only);
                s.onlyCall = options.onlyCall;
                s.anyCaller = options.anyCaller;
                s.consistentCall = options.consistentCall;
                s.trackAllocations = options.trackAllocations;
                s.log = options.log;
                s.logLimit = options.logLimit;
                s.runtimeCache = options.runtimeCache;
                io.github.odrust.agent.shuffle.ShuffleAgent.activate(s, inst);
                return;
            }
            Fields.configure(options);
            inst.addTransformer(new Transformer(options), false);
            Recorder.activate();
        } catch (Throwable t) {
            System.err.println("odrust-agent: the recording agent failed to start (" + t
                    + "); static-field recording is off for this run");
        }
    }
}
