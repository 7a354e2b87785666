package io.github.odrust.maven.repair;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles one candidate source file (javax.tools, in Maven's JVM) against the module's test
 * classpath into a private directory, never the project's {@code target/test-classes}. A compile
 * error is an outcome (the first error, with its line), not an exception.
 */
public final class CandidateCompiler {
    private final List<File> classpath;
    private final Charset encoding;
    private final String release;
    /** The level came from {@code source}/{@code target}: {@code -source}/{@code -target}, this JDK's API. */
    private final boolean sourceOnly;

    /**
     * @param release the Java release to compile for ({@code maven.compiler.release}, else
     *     {@code maven.compiler.target}), or null for the compiler's own
     */
    public CandidateCompiler(List<File> classpath, Charset encoding, String release) {
        this.classpath = classpath;
        this.encoding = encoding;
        this.sourceOnly = release != null && release.startsWith(SOURCE);
        String level = release == null ? null : sourceOnly ? release.substring(SOURCE.length()) : release;
        this.release = level == null ? null : level.trim().replaceFirst("^1\\.(\\d)$", "$1");
    }

    /**
     * Prefix of a level given as {@code source}/{@code target} rather than {@code release}: the
     * module compiles against the running JDK's API with that language level, and so must the
     * candidate ({@code --release 7} would also hide the JDK 8+ API the module uses).
     */
    static final String SOURCE = "source:";

    /** Thrown when no compiler is available (Maven runs on a JRE). */
    public static final class NoCompilerException extends Exception {
        NoCompilerException() {
            super(
                    "odrust:repair compiles candidate patches with the JDK's compiler, and Maven runs on a Java runtime without"
                            + " one (" + System.getProperty("java.home") + "); run Maven with a JDK (JAVA_HOME)");
        }
    }

    /**
     * Writes {@code text} as {@code dir/src/<relative>} and compiles it into {@code dir/classes}.
     *
     * @return null when it compiled, else the first error
     */
    public String compile(String text, String relative, Path dir) throws IOException, NoCompilerException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new NoCompilerException();
        }
        Path source = dir.resolve("src").resolve(relative);
        Path classes = dir.resolve("classes");
        Files.createDirectories(source.getParent());
        Files.createDirectories(classes);
        Files.write(source, text.getBytes(encoding));
        List<String> options = new ArrayList<>(List.of(
                "-d",
                classes.toString(),
                "-classpath",
                classpath.stream().map(File::getPath).collect(Collectors.joining(File.pathSeparator)),
                "-encoding",
                encoding.name(),
                "-proc:none",
                "-nowarn",
                "-g"));
        if (release != null && !release.isEmpty() && sourceOnly) {
            options.addAll(List.of("-source", release, "-target", release));
        } else if (release != null && !release.isEmpty()) {
            options.add("--release");
            options.add(release);
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Writer out = new StringWriter();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, encoding)) {
            boolean ok = compiler.getTask(
                            out, files, diagnostics, options, null, files.getJavaFileObjects(source.toFile()))
                    .call();
            if (ok) {
                return null;
            }
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                // "line 21 of the patched FooTest.java: cannot find symbol; symbol: variable config;
                // location: class FooTest" (the line is the patched file's, which the user never sees)
                return "line " + d.getLineNumber() + " of the patched " + source.getFileName() + ": "
                        + String.join(
                                "; ",
                                java.util.Arrays.stream(
                                                d.getMessage(Locale.ROOT).split("\\R"))
                                        .map(String::trim)
                                        .filter(l -> !l.isEmpty())
                                        .toArray(String[]::new));
            }
        }
        String printed = out.toString().trim();
        return printed.isEmpty() ? "the compiler failed without saying why" : printed.split("\\R")[0];
    }
}
