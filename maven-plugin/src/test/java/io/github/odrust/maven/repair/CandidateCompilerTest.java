package io.github.odrust.maven.repair;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CandidateCompilerTest {
    @TempDir
    Path dir;

    /** Java 8 language, and an API (List.of) that only the running JDK has. */
    static final String SOURCE = "package p;\nclass A {\n    java.util.List<String> l = java.util.List.of(\"a\");\n"
            + "    Runnable r = () -> { };\n}\n";

    @Test
    void aModuleBuiltWithSourceAndTargetCompilesAgainstTheRunningJdksApiWhileReleaseHidesIt() throws Exception {
        // as a module with <source>8</source>: -source/-target, the API of the JDK that runs Maven
        assertNull(new CandidateCompiler(List.of(), StandardCharsets.UTF_8, CandidateCompiler.SOURCE + "1.8")
                .compile(SOURCE, "p/A.java", dir.resolve("source")));
        // as a module with <release>8</release>: Java 8's API only
        String error = new CandidateCompiler(List.of(), StandardCharsets.UTF_8, "8")
                .compile(SOURCE, "p/A.java", dir.resolve("release"));
        assertNotNull(error);
        assertTrue(error.startsWith("line 3 of the patched A.java: "), error);
        // a Java 7 language level refuses the lambda either way
        String seven = new CandidateCompiler(List.of(), StandardCharsets.UTF_8, CandidateCompiler.SOURCE + "1.7")
                .compile(SOURCE, "p/A.java", dir.resolve("seven"));
        assertTrue(seven != null && seven.contains("line 4"), String.valueOf(seven));
    }
}
