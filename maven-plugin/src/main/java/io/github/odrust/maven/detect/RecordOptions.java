package io.github.odrust.maven.detect;

import io.github.odrust.agent.format.AgentOptions;
import io.github.odrust.maven.core.ProjectRoots;
import io.github.odrust.maven.core.TestModule;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The options file of the jvm-agent's recording mode ({@code -javaagent:agent.jar=FILE}; format in
 * {@link AgentOptions} and docs/protocol.md): the project's own code on the test classpath is
 * instrumented ({@link ProjectRoots}: the class directories, and the project's jars, so a sibling
 * module of the module's groupId counts alike whether the build gives it as a directory or as a
 * jar), plus the user's {@code odrust.dependence.include}.
 */
public final class RecordOptions {
    /**
     * Logger types: a {@code static final Logger LOG} is read by nearly every test, and counting
     * each read as a possible write would make every pair of tests dependent.
     */
    static final List<String> CONSTANT_TYPES = List.of(
            "org.slf4j.Logger",
            "java.util.logging.Logger",
            "org.apache.logging.log4j.Logger",
            "org.apache.log4j.Logger",
            "org.apache.commons.logging.Log",
            "ch.qos.logback.classic.Logger",
            "java.lang.System$Logger");

    private RecordOptions() {}

    public static void write(Path file, TestModule module, List<String> include) throws IOException {
        AgentOptions.Writer w = new AgentOptions.Writer()
                .comment("odrust: which classes the jvm-agent records static field accesses of");
        for (File root : ProjectRoots.of(module).all()) {
            w.root(root);
        }
        CONSTANT_TYPES.forEach(w::constantType);
        include.forEach(w::include);
        w.write(file);
    }
}
