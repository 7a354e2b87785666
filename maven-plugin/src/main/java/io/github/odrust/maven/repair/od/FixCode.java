package io.github.odrust.maven.repair.od;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.type.ReferenceType;
import io.github.odrust.maven.repair.JavaSources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The code a patch can take from a cleaner or state-setter: its statements, numbered as the
 * engine's delta debugging sees them. When it is in another class than the flaky test, its class's
 * own setup ({@code @Before}/{@code @BeforeEach}) statements come first, since its body may rely
 * on them (delta debugging drops those it does not need).
 */
final class FixCode {
    /** The cleaner's or state-setter's test id. */
    final String test;

    final String className;
    final Path file;
    final CompilationUnit unit;
    final TypeDeclaration<?> type;
    /** The statements, setup's first; never modified (patches use copies). */
    final List<Statement> statements = new ArrayList<>();
    /** How many of {@link #statements} come from its class's setup. */
    int setupStatements;
    /** Exceptions its body and the setup it brings declare. */
    final List<ReferenceType> thrown = new ArrayList<>();
    /** Whether it is in another class than the flaky test (its members must be inlined). */
    final boolean foreign;
    /** Why it cannot be used, or null. */
    final String unusable;
    /**
     * Statements odrust wrote (calls of the module's reset methods, fully qualified): nothing to
     * inline, wherever they go.
     */
    boolean generated;
    /**
     * Where the engine says generated statements compile, in the order to try; null for the
     * placements of a cleaner (setup, then polluter-teardown for a victim, then test).
     */
    List<String> placements;

    private FixCode(
            String test,
            String className,
            Path file,
            CompilationUnit unit,
            TypeDeclaration<?> type,
            boolean foreign,
            String unusable) {
        this.test = test;
        this.className = className;
        this.file = file;
        this.unit = unit;
        this.type = type;
        this.foreign = foreign;
        this.unusable = unusable;
    }

    /**
     * Generated statements (each fully qualified Java, e.g. {@code com.acme.Prices.reset();}) as a
     * source named {@code id}; a statement that does not parse is left out.
     */
    static FixCode generated(String id, String targetClass, List<String> statements) {
        FixCode fix = new FixCode(id, targetClass, null, null, null, false, null);
        fix.generated = true;
        for (String st : statements) {
            com.github.javaparser.ParseResult<Statement> r =
                    JavaSources.parser().parseStatement(st);
            if (r.isSuccessful() && r.getResult().isPresent()) {
                fix.statements.add(r.getResult().get());
            }
        }
        return fix;
    }

    static FixCode unusable(String test, String why) {
        return new FixCode(test, null, null, null, null, true, why);
    }

    /** Reads the cleaner / state-setter {@code test} for a patch of a test in class {@code targetClass}. */
    static FixCode load(JavaSources sources, String test, String targetClass) {
        String className = test.substring(0, test.indexOf('#'));
        String method = test.substring(test.indexOf('#') + 1);
        try {
            Path file = sources.find(className);
            CompilationUnit cu = JavaSources.parse(sources.read(file), file);
            TypeDeclaration<?> type = JavaSources.type(cu, className, file);
            MethodDeclaration m = JavaSources.method(type, method, file);
            if (!m.getParameters().isEmpty()) {
                return unusable(test, "it takes parameters (a parameterized test): its statements depend on them");
            }
            if (m.getBody().isEmpty()) {
                return unusable(test, "it has no body");
            }
            boolean foreign = !className.equals(targetClass);
            FixCode fix = new FixCode(test, className, file, cu, type, foreign, null);
            if (foreign) {
                for (MethodDeclaration setup : JavaSources.setupMethods(type)) {
                    // super.setUp() and the like mean nothing in another class
                    setup.getBody()
                            .ifPresent(b -> b.getStatements().stream()
                                    .filter(st -> !callsSuper(st))
                                    .forEach(fix.statements::add));
                    fix.thrown.addAll(setup.getThrownExceptions());
                }
                fix.setupStatements = fix.statements.size();
            }
            fix.statements.addAll(m.getBody().get().getStatements());
            fix.thrown.addAll(m.getThrownExceptions());
            return fix;
        } catch (JavaSources.SourceException e) {
            return unusable(test, e.getMessage());
        }
    }

    private static boolean callsSuper(Statement st) {
        return st.isExpressionStmt()
                && st.asExpressionStmt().getExpression().isMethodCallExpr()
                && st.asExpressionStmt()
                        .getExpression()
                        .asMethodCallExpr()
                        .getScope()
                        .filter(s -> s.isSuperExpr())
                        .isPresent();
    }

    /** The source text of statement {@code i}, on one line. */
    String text(int i) {
        return statements.get(i).toString().replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
