package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.List;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DefaultArtifact;
import org.apache.maven.artifact.handler.DefaultArtifactHandler;
import org.junit.jupiter.api.Test;

class TestModuleTest {
    private static Artifact artifact(String g, String a, String classifier, String scope) {
        DefaultArtifactHandler jar = new DefaultArtifactHandler("jar");
        jar.setAddedToClasspath(true); // as Maven's own "jar" handler is configured
        DefaultArtifact art = new DefaultArtifact(g, a, "1.0", scope, "jar", classifier, jar);
        art.setFile(new File("/repo/" + a + (classifier == null ? "" : "-" + classifier) + ".jar"));
        return art;
    }

    @Test
    void regressionAnArtifactAndItsClassifiedTwinAreBothOnTheClasspath() {
        List<Artifact> deps = List.of(
                artifact("com.github.jnr", "jffi", null, "compile"),
                artifact("com.github.jnr", "jffi", "native", "runtime"),
                artifact("junit", "junit", null, "test"));
        assertEquals(
                List.of(new File("/repo/jffi.jar"), new File("/repo/jffi-native.jar"), new File("/repo/junit.jar")),
                TestModule.dependencyClasspath(deps, List.of(), null));
    }

    @Test
    void excludesByNameByClassifierAndByScope() {
        List<Artifact> deps = List.of(
                artifact("g", "a", null, "compile"),
                artifact("g", "a", "native", "compile"),
                artifact("g", "b", null, "runtime"),
                artifact("g", "c", null, "test"));
        assertEquals(List.of(new File("/repo/c.jar")), TestModule.dependencyClasspath(deps, List.of("g:a"), "runtime"));
        assertEquals(
                List.of(new File("/repo/a.jar"), new File("/repo/b.jar"), new File("/repo/c.jar")),
                TestModule.dependencyClasspath(deps, List.of("g:a:native"), null));
    }
}
