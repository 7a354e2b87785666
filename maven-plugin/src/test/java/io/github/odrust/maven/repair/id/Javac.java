package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** Compiles a rewritten source with the JDK's compiler, and calls a method of what it compiled: the tests' proof that a patch builds and does what it says. */
final class Javac {
    private Javac() {}

    /**
     * Compiles {@code source} as {@code root/src/relative} into {@code root/classes}, JUnit's API and
     * {@code jars} on the class path: the compiler's errors, or null when it compiled.
     */
    static String errors(Path root, String source, String relative, List<Path> jars) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests run on a JDK");
        Path file = root.resolve("src").resolve(relative);
        Path classes = root.resolve("classes");
        Files.createDirectories(file.getParent());
        Files.createDirectories(classes);
        Files.write(file, source.getBytes(StandardCharsets.UTF_8));
        List<Path> classpath = new ArrayList<>(jars);
        for (String c : List.of(
                "org.junit.jupiter.api.Test", "org.apiguardian.api.API", "org.opentest4j.AssertionFailedError")) {
            located(c).ifPresent(classpath::add);
        }
        List<String> options = List.of(
                "-d",
                classes.toString(),
                "-proc:none",
                "-encoding",
                "UTF-8",
                "-classpath",
                classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            if (javac.getTask(
                            new StringWriter(),
                            files,
                            diagnostics,
                            options,
                            null,
                            files.getJavaFileObjects(file.toFile()))
                    .call()) {
                return null;
            }
        }
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> "line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .collect(Collectors.joining("\n"));
    }

    /**
     * Compiles {@code source} (the class {@code className}, at {@code relative}) in a new folder
     * under {@code dir} and returns what its no-argument method {@code method} returns on a new
     * instance.
     */
    static Object call(Path dir, String source, String relative, String className, String method) throws Exception {
        Path root = Files.createTempDirectory(dir, "call");
        String error = errors(root, source, relative, List.of());
        assertEquals(null, error, () -> "does not compile: " + error + "\n" + source);
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {root.resolve("classes").toUri().toURL()}, null)) {
            Class<?> c = loader.loadClass(className);
            return c.getMethod(method).invoke(c.getConstructor().newInstance());
        }
    }

    private static Optional<Path> located(String className) {
        try {
            return Optional.of(Paths.get(Class.forName(className)
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()));
        } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
