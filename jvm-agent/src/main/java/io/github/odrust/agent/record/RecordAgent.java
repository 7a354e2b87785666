package io.github.odrust.agent.record;

import java.lang.instrument.Instrumentation;

/**
 * {@code -javaagent:<odrust-jvm-agent.jar>=<options-file>}: records which static fields each test
 * reads and writes (DTDetector's dependence-aware strategy). Never stops the JVM: a bad options
 * file is reported on stderr and nothing is recorded.
 */
public final class RecordAgent {
    private RecordAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        try {
            Options options;
            try {
                options = Options.read(args);
            } catch (Options.BadOptionsException e) {
                System.err.println("odrust-agent: " + e.getMessage() + "; static-field recording is off for this run");
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
