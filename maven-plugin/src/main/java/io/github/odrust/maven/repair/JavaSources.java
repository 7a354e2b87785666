package io.github.odrust.maven.repair;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import java.io.File;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Finding, reading and parsing test sources, and finding a class or test method in them (JavaParser). */
public final class JavaSources {
    private final List<File> roots;
    private final Charset encoding;

    /** @param roots the module's test source roots, in Maven's order */
    public JavaSources(List<File> roots, Charset encoding) {
        this.roots = roots;
        this.encoding = encoding;
    }

    /** Why a source cannot be used: the message names the file or the roots searched. */
    public static final class SourceException extends Exception {
        SourceException(String message) {
            super(message);
        }
    }

    /** The file that declares {@code className} (binary name; a nested class is in its outer class's file). */
    public Path find(String className) throws SourceException {
        String top = className.contains("$") ? className.substring(0, className.indexOf('$')) : className;
        String relative = top.replace('.', '/') + ".java";
        for (File root : roots) {
            Path p = root.toPath().resolve(relative);
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        throw new SourceException(
                "the source of " + className + " (" + relative + ") is not under the module's test source roots "
                        + roots.stream().map(File::getPath).collect(Collectors.joining(", "))
                        + "; odrust:repair edits test sources only (a test class generated or taken from a jar cannot be repaired)");
    }

    public String read(Path file) throws SourceException {
        try {
            return new String(Files.readAllBytes(file), encoding);
        } catch (IOException e) {
            throw new SourceException("cannot read " + file + ": " + e.getMessage());
        }
    }

    public Charset encoding() {
        return encoding;
    }

    public static JavaParser parser() {
        return new JavaParser(
                new ParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.BLEEDING_EDGE));
    }

    public static CompilationUnit parse(String text, Path file) throws SourceException {
        ParseResult<CompilationUnit> r = parser().parse(text);
        if (!r.isSuccessful() || r.getResult().isEmpty()) {
            String problem = r.getProblems().isEmpty()
                    ? "unknown problem"
                    : r.getProblems().get(0).getVerboseMessage();
            throw new SourceException("cannot parse " + file + ": " + firstLine(problem));
        }
        return r.getResult().get();
    }

    /** The declaration of {@code className} (binary name) in {@code cu}. */
    public static TypeDeclaration<?> type(CompilationUnit cu, String className, Path file) throws SourceException {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        String[] path = simple.split("\\$");
        TypeDeclaration<?> current = null;
        for (String name : path) {
            List<? extends BodyDeclaration<?>> candidates = current == null ? cu.getTypes() : current.getMembers();
            TypeDeclaration<?> next = null;
            for (BodyDeclaration<?> b : candidates) {
                if (b instanceof TypeDeclaration
                        && ((TypeDeclaration<?>) b).getNameAsString().equals(name)) {
                    next = (TypeDeclaration<?>) b;
                }
            }
            if (next == null) {
                throw new SourceException(file + " declares no class " + className);
            }
            current = next;
        }
        return current;
    }

    /**
     * The test method {@code method} of a test id ({@code m}, or {@code m(Type, Type)} where
     * overloads clash), declared in {@code type}.
     */
    public static MethodDeclaration method(TypeDeclaration<?> type, String method, Path file) throws SourceException {
        String name = method.contains("(") ? method.substring(0, method.indexOf('(')) : method;
        if (name.contains("[")) {
            name = name.substring(0, name.indexOf('['));
        }
        List<MethodDeclaration> found = type.getMethodsByName(name);
        if (method.contains("(") && found.size() > 1) {
            String params = method.substring(method.indexOf('(') + 1, method.lastIndexOf(')'))
                    .replace(" ", "");
            List<MethodDeclaration> matching = new ArrayList<>();
            for (MethodDeclaration m : found) {
                String types = m.getParameters().stream()
                        .map(p -> simpleName(p.getType().asString()))
                        .collect(Collectors.joining(","));
                if (types.equals(params)) {
                    matching.add(m);
                }
            }
            found = matching;
        } else if (found.size() > 1) {
            found = found.stream().filter(m -> m.getParameters().isEmpty()).collect(Collectors.toList());
        }
        if (found.isEmpty()) {
            int open = method.indexOf('[');
            String place = open < 0 ? "" : method.substring(open + 1, method.length() - 1);
            // `C#m[keys/C$Checks]`: a place in a suite (docs/run-order.md), not an invocation `m[0]`
            boolean suitePlace = open > 0
                    && !place.isEmpty()
                    && (place.contains("/") || place.contains("$") || Character.isUpperCase(place.charAt(0)));
            throw new SourceException(file + ": " + type.getNameAsString() + " declares no method " + method
                    + (suitePlace
                            ? " (a test its JUnit 3 suite() runs, named by its place in the suite: its code is "
                                    + name + " of " + place.substring(place.lastIndexOf('/') + 1)
                                    + "; such tests cannot be repaired yet)"
                            : " (an inherited test method cannot be repaired yet)"));
        }
        return found.get(0);
    }

    /**
     * The type's own setup methods ({@code @Before}, {@code @BeforeEach}; in a JUnit 3
     * {@code TestCase}, {@code setUp()}), in declaration order.
     */
    public static List<MethodDeclaration> setupMethods(TypeDeclaration<?> type) {
        return hooks(type, "setUp", "Before", "org.junit.Before", "BeforeEach", "org.junit.jupiter.api.BeforeEach");
    }

    /**
     * The type's own teardown methods ({@code @After}, {@code @AfterEach}; in a JUnit 3
     * {@code TestCase}, {@code tearDown()}), in declaration order.
     */
    public static List<MethodDeclaration> teardownMethods(TypeDeclaration<?> type) {
        return hooks(type, "tearDown", "After", "org.junit.After", "AfterEach", "org.junit.jupiter.api.AfterEach");
    }

    private static List<MethodDeclaration> hooks(TypeDeclaration<?> type, String junit3Name, String... annotations) {
        List<String> names = List.of(annotations);
        boolean junit3 = isJUnit3(type);
        List<MethodDeclaration> hooks = new ArrayList<>();
        for (MethodDeclaration m : type.getMethods()) {
            boolean annotated = m.getAnnotations().stream()
                    .map(AnnotationExpr::getNameAsString)
                    .anyMatch(names::contains);
            boolean junit3Hook = junit3
                    && m.getNameAsString().equals(junit3Name)
                    && m.getParameters().isEmpty();
            if (annotated || junit3Hook) {
                hooks.add(m);
            }
        }
        return hooks;
    }

    /** Whether the type is a JUnit 3 test case ({@code extends TestCase}), whose runner calls setUp/tearDown by name. */
    static boolean isJUnit3(TypeDeclaration<?> type) {
        return type instanceof ClassOrInterfaceDeclaration
                && ((ClassOrInterfaceDeclaration) type)
                        .getExtendedTypes().stream()
                                .anyMatch(t -> t.getNameAsString().equals("TestCase")
                                        || t.asString().equals("junit.framework.TestCase"));
    }

    /** Whether the compilation unit is written against JUnit 5 (Jupiter) rather than JUnit 4. */
    public static boolean isJupiter(CompilationUnit cu) {
        return cu.getImports().stream().anyMatch(i -> i.getNameAsString().startsWith("org.junit.jupiter"));
    }

    public static String packageOf(CompilationUnit cu) {
        return cu.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
    }

    static Optional<String> sourceName(CompilationUnit cu) {
        return cu.getPrimaryTypeName();
    }

    private static String simpleName(String type) {
        String t = type.replaceAll("<.*>", "");
        return t.substring(t.lastIndexOf('.') + 1);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
