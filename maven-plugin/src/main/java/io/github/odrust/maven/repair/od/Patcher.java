package io.github.odrust.maven.repair.od;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.NullLiteralExpr;
import com.github.javaparser.ast.expr.ThisExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithModifiers;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.type.Type;
import io.github.odrust.maven.repair.JavaSources;
import io.github.odrust.maven.repair.TextEdits;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Makes one candidate patch: the flaky test's source file with a cleaner's (or state-setter's)
 * chosen statements copied into a helper method of the flaky test's class, called from the chosen
 * placement (docs/repair.md, "Placements"). Untouched code keeps its formatting (JavaParser's
 * lexical-preserving printer). Deterministic: the same inputs give the same text.
 *
 * <p>Statements from another class are inlined: that class's instance fields they use become
 * locals of the helper (with their initializers, else Java's default values, as a fresh test
 * instance has them), its static members are reached through its name when accessible, its
 * private static helper methods are copied, and the imports the copied code needs are added.
 *
 * <p>A kept declaration whose variable no later kept statement uses is no declaration: {@code T x =
 * call();} becomes {@code call();} (a call or an object creation may change state, and
 * verification decides whether it is needed), and one without effect ({@code T x = 1;}, a name, a
 * field, a cast of those) is left out. The helper declares {@code throws Exception} only when the
 * caller says its code needs it ({@link #patch(FixCode, List, Placement, boolean, String,
 * boolean)}: {@code Candidates.patch} compiles the code without it first).
 */
final class Patcher {
    /**
     * The version of the code this class writes: part of each repair record's fingerprint, so a
     * record made by other patch code is not taken for a fact about this one. Raise it when the
     * generated code changes.
     */
    static final int VERSION = 3;

    /** Where the patch calls its statements from (the engine's {@code Placement}). */
    enum Placement {
        /** The class's setup ({@code @Before}/{@code @BeforeEach}). */
        SETUP,
        /** The start of the test method. */
        TEST,
        /** The class's teardown ({@code @After}/{@code @AfterEach}): used on a polluter's class. */
        TEARDOWN
    }

    private final String targetClass;
    private final String targetMethod;
    private final Path file;
    private final String original;
    /** What the helper is named after instead of the flaky test's method (see {@link #withCauseName}), or null. */
    private final String causeName;

    /** What a candidate did to the source, for repair.json. */
    static final class Result {
        String text;
        /** The method the helper is called from, or the helper itself when it is the new setup method. */
        String method;
        /** The helper method's name. */
        String helper;
        /** Whether the helper declares {@code throws Exception}. */
        boolean declaresThrows;
    }

    Patcher(String targetTest, Path file, String original) {
        this(
                targetTest.substring(0, targetTest.indexOf('#')),
                targetTest.substring(targetTest.indexOf('#') + 1),
                file,
                original,
                null);
    }

    private Patcher(String targetClass, String targetMethod, Path file, String original, String causeName) {
        this.targetClass = targetClass;
        this.targetMethod = targetMethod;
        this.file = file;
        this.original = original;
        this.causeName = causeName;
    }

    /**
     * This patcher (the same file, class and method), but naming the helper after a cause rather
     * than the flaky test: {@code odrust{Clean|Prepare}{Before|After}} + {@code causeName}
     * capitalized (e.g. {@code odrustCleanAfterLoadsDefaults} for {@code "loadsDefaults"}, a
     * polluter's method). Characters that cannot be part of a Java identifier are left out; a
     * null or empty name (after that) names the helper after the flaky test, as without it.
     */
    Patcher withCauseName(String causeName) {
        StringBuilder safe = new StringBuilder();
        if (causeName != null) {
            causeName.codePoints().filter(Character::isJavaIdentifierPart).forEach(safe::appendCodePoint);
        }
        return new Patcher(targetClass, targetMethod, file, original, safe.length() == 0 ? null : safe.toString());
    }

    /** The test whose class this patcher edits ({@code pkg.Class#method}). */
    String test() {
        return targetClass + "#" + targetMethod;
    }

    /** Checks that the flaky test's file parses and declares it (before any experiment). */
    void check() throws JavaSources.SourceException {
        CompilationUnit cu = JavaSources.parse(original, file);
        JavaSources.method(JavaSources.type(cu, targetClass, file), targetMethod, file);
    }

    /**
     * The patched text, declaring {@code throws Exception} when the code it copies declares
     * checked exceptions (whether or not the kept statements throw them): prefer {@link
     * #patch(FixCode, List, Placement, boolean, String, boolean)} through {@code
     * Candidates.patch}, which declares it only when the kept statements need it.
     */
    Result patch(FixCode fix, List<Integer> keep, Placement placement, boolean cleaner, String comment)
            throws JavaSources.SourceException {
        return patch(fix, keep, placement, cleaner, comment, !fix.thrown.isEmpty());
    }

    /**
     * The patched text.
     *
     * @param cleaner true for a cleaner's statements (a victim), false for a state-setter's (a brittle)
     * @param comment the comment above the helper (without the leading slashes)
     * @param declareThrows whether the helper declares {@code throws Exception} (and the method
     *     calling it too, when it does not already)
     */
    Result patch(
            FixCode fix,
            List<Integer> keep,
            Placement placement,
            boolean cleaner,
            String comment,
            boolean declareThrows)
            throws JavaSources.SourceException {
        CompilationUnit cu = JavaSources.parse(original, file);
        TypeDeclaration<?> type = JavaSources.type(cu, targetClass, file);
        MethodDeclaration test = JavaSources.method(type, targetMethod, file);
        boolean jupiter = JavaSources.isJupiter(cu);
        TextEdits edits = new TextEdits(original);

        NodeList<Statement> body = new NodeList<>();
        for (int i : keep) {
            body.add(fix.statements.get(i).clone());
        }
        List<String> copied = new ArrayList<>();
        List<ImportDeclaration> imports = new ArrayList<>();
        boolean foreign = !fix.generated && !fix.className.equals(targetClass);
        if (foreign) {
            inline(fix, cu, type, body, copied, imports);
        }
        withoutUnusedDeclarations(body);
        String helperName = freshName(
                type,
                "odrust" + (cleaner ? "Clean" : "Prepare") + (placement == Placement.TEARDOWN ? "After" : "Before")
                        + capitalize(causeName != null ? causeName : test.getNameAsString()));
        boolean throwsSomething = declareThrows;
        Result result = new Result();
        result.helper = helperName;
        result.declaresThrows = throwsSomething;
        String modifiers = "private ";
        String annotation = null;
        if (placement == Placement.TEST) {
            edits.call(test, helperName, false, throwsSomething);
            result.method = test.getNameAsString();
        } else {
            boolean setup = placement == Placement.SETUP;
            List<MethodDeclaration> hooks = setup ? JavaSources.setupMethods(type) : JavaSources.teardownMethods(type);
            if (hooks.isEmpty()) {
                modifiers = jupiter ? "" : "public ";
                String name = (setup ? "Before" : "After") + (jupiter ? "Each" : "");
                annotation = "@" + name;
                needImport(cu, imports, (jupiter ? "org.junit.jupiter.api." : "org.junit.") + name, false, false);
                result.method = helperName;
            } else {
                // In a setup: where the fix's own code ran, before the whole class setup when it
                // came from another class, after it when it came from this class (its body ran
                // after it). In a teardown: last, when the test and its own cleanup are over.
                MethodDeclaration hook = hooks.get(0);
                edits.call(hook, helperName, !setup || !foreign, throwsSomething);
                result.method = hook.getNameAsString();
            }
        }
        String indent = edits.memberIndent(type);
        String unit = edits.unit(type);
        StringBuilder method = new StringBuilder();
        for (String line : comment.split("\n")) {
            method.append(indent).append("// ").append(line).append('\n');
        }
        if (annotation != null) {
            method.append(indent).append(annotation).append('\n');
        }
        method.append(indent)
                .append(modifiers)
                .append("void ")
                .append(helperName)
                .append("()")
                .append(throwsSomething ? " throws Exception" : "")
                .append(" {\n");
        for (Statement st : body) {
            method.append(indented(st.toString(), indent + unit));
        }
        method.append(indent).append("}\n");
        for (String m : copied) {
            method.append('\n').append(indented(m, indent));
        }
        edits.addMember(type, method.toString());
        edits.imports(cu, imports);
        result.text = edits.apply();
        return result;
    }

    /**
     * Each declaration {@code T x = <expr>;} of one variable that no later statement of {@code body}
     * names: {@code <expr>;} when {@code <expr>} is a call or an object creation (its effect may be
     * what is needed), nothing when it has no effect (a literal, a name, a field, a cast of
     * those); any other declaration stays. From the last statement back, so a variable only an
     * unused declaration named is unused too.
     */
    static void withoutUnusedDeclarations(NodeList<Statement> body) {
        for (int i = body.size() - 1; i >= 0; i--) {
            Statement st = body.get(i);
            if (!st.isExpressionStmt() || !st.asExpressionStmt().getExpression().isVariableDeclarationExpr()) {
                continue;
            }
            VariableDeclarationExpr decl = st.asExpressionStmt().getExpression().asVariableDeclarationExpr();
            if (decl.getVariables().size() != 1) {
                continue;
            }
            String name = decl.getVariable(0).getNameAsString();
            boolean used = false;
            for (int j = i + 1; j < body.size() && !used; j++) {
                used = mentions(body.get(j), name);
            }
            if (used) {
                continue;
            }
            Expression init = decl.getVariable(0).getInitializer().orElse(null);
            while (init != null && init.isEnclosedExpr()) {
                init = init.asEnclosedExpr().getInner();
            }
            if (init == null || withoutEffect(init)) {
                body.remove(i);
            } else if (init.isMethodCallExpr() || init.isObjectCreationExpr()) {
                body.set(i, new ExpressionStmt(init.clone()));
            }
        }
    }

    /** A literal, a name, {@code this}, a class literal, a field of those, a cast of those. */
    private static boolean withoutEffect(Expression e) {
        if (e.isEnclosedExpr()) {
            return withoutEffect(e.asEnclosedExpr().getInner());
        }
        if (e.isCastExpr()) {
            return withoutEffect(e.asCastExpr().getExpression());
        }
        if (e.isFieldAccessExpr()) {
            return withoutEffect(e.asFieldAccessExpr().getScope());
        }
        return e.isLiteralExpr() || e.isNameExpr() || e.isThisExpr() || e.isClassExpr() || e.isTypeExpr();
    }

    /** {@code code} with each line indented by {@code indent} (JavaParser prints 4-space blocks). */
    private static String indented(String code, String indent) {
        StringBuilder b = new StringBuilder();
        for (String line : code.split("\\R")) {
            b.append(line.isBlank() ? "" : indent + line).append('\n');
        }
        return b.toString();
    }

    /** Rewrites copied statements of another class so they compile in the flaky test's class. */
    private void inline(
            FixCode fix,
            CompilationUnit target,
            TypeDeclaration<?> targetType,
            NodeList<Statement> body,
            List<String> copiedText,
            List<ImportDeclaration> imports) {
        List<MethodDeclaration> copied = new ArrayList<>();
        String targetPackage = JavaSources.packageOf(target);
        String fixPackage = JavaSources.packageOf(fix.unit);
        boolean samePackage = targetPackage.equals(fixPackage);
        String qualifier = (samePackage ? "" : (fixPackage.isEmpty() ? "" : fixPackage + "."))
                + fix.className.substring(fix.className.lastIndexOf('.') + 1).replace('$', '.');
        boolean typeAccessible = samePackage || fix.type.isPublic();

        Map<String, VariableDeclarator> instanceFields = new LinkedHashMap<>();
        Map<String, FieldDeclaration> fieldDecl = new LinkedHashMap<>();
        for (FieldDeclaration f : fix.type.getFields()) {
            for (VariableDeclarator v : f.getVariables()) {
                fieldDecl.put(v.getNameAsString(), f);
                if (!f.isStatic()) {
                    instanceFields.put(v.getNameAsString(), v);
                }
            }
        }
        Set<String> usedInstanceFields = new LinkedHashSet<>();
        Set<String> copiedNames = new HashSet<>();
        Deque<Node> work = new ArrayDeque<>(body);
        Set<String> locals = declaredNames(body);
        while (!work.isEmpty()) {
            Node node = work.poll();
            boolean inCopiedStatic = node instanceof MethodDeclaration;
            Set<String> scopeLocals = inCopiedStatic ? declaredNames(node) : locals;
            for (FieldAccessExpr fa : node.findAll(FieldAccessExpr.class)) {
                if (fa.getScope() instanceof ThisExpr && instanceFields.containsKey(fa.getNameAsString())) {
                    usedInstanceFields.add(fa.getNameAsString());
                    fa.replace(new NameExpr(fa.getNameAsString()));
                }
            }
            for (NameExpr n : node.findAll(NameExpr.class)) {
                String name = n.getNameAsString();
                if (scopeLocals.contains(name) || !fieldDecl.containsKey(name)) {
                    continue;
                }
                FieldDeclaration f = fieldDecl.get(name);
                if (f.isStatic()) {
                    if (typeAccessible && accessible(f, samePackage)) {
                        n.replace(new FieldAccessExpr(qualifiedName(qualifier), name));
                    }
                } else if (!inCopiedStatic) {
                    usedInstanceFields.add(name);
                }
            }
            for (MethodCallExpr call : node.findAll(MethodCallExpr.class)) {
                boolean unscoped = call.getScope().isEmpty() || call.getScope().get() instanceof ThisExpr;
                String name = call.getNameAsString();
                if (!unscoped || !targetType.getMethodsByName(name).isEmpty() && !copiedNames.contains(name)) {
                    continue;
                }
                List<MethodDeclaration> declared = fix.type.getMethodsByName(name);
                if (declared.isEmpty() || !declared.stream().allMatch(MethodDeclaration::isStatic)) {
                    continue; // an instance helper of the other class: left as is (it will not compile)
                }
                if (typeAccessible && declared.stream().allMatch(m -> accessible(m, samePackage))) {
                    call.setScope(qualifiedName(qualifier));
                } else if (copiedNames.add(name)) {
                    for (MethodDeclaration m : declared) {
                        MethodDeclaration copy = m.clone();
                        copy.getAnnotations().clear();
                        copied.add(copy);
                        work.add(copy);
                    }
                }
            }
        }
        NodeList<Statement> declarations = new NodeList<>();
        for (String name : usedInstanceFields) {
            VariableDeclarator v = instanceFields.get(name);
            Statement first =
                    body.stream().filter(st -> mentions(st, name)).findFirst().orElse(null);
            boolean defaultOnly =
                    v.getInitializer().map(i -> i.isNullLiteralExpr()).orElse(true);
            if (defaultOnly && first != null && assigns(first, name)) {
                // `name = expr;` is the first use: declare the local there (`Type name = expr;`)
                Expression value = first.asExpressionStmt()
                        .getExpression()
                        .asAssignExpr()
                        .getValue()
                        .clone();
                body.replace(
                        first,
                        new ExpressionStmt(new VariableDeclarationExpr(
                                new VariableDeclarator(v.getType().clone(), name, value))));
                continue;
            }
            Expression init = v.getInitializer().map(Expression::clone).orElseGet(() -> defaultValue(v.getType()));
            declarations.add(new ExpressionStmt(new VariableDeclarationExpr(
                    new VariableDeclarator(v.getType().clone(), name, init))));
        }
        body.addAll(0, declarations);

        copied.forEach(m -> copiedText.add(m.toString()));
        StringBuilder code = new StringBuilder();
        body.forEach(s -> code.append(s).append('\n'));
        copiedText.forEach(m -> code.append(m).append('\n'));
        for (ImportDeclaration i : fix.unit.getImports()) {
            if (i.isAsterisk() || uses(code, i.getName().getIdentifier())) {
                needImport(target, imports, i.getNameAsString(), i.isStatic(), i.isAsterisk());
            }
        }
        if (!samePackage && !fixPackage.isEmpty()) {
            needImport(target, imports, fixPackage, false, true); // types of its package it names by simple name
        }
    }

    private static boolean mentions(Statement st, String name) {
        return st.findAll(NameExpr.class).stream()
                .anyMatch(n -> n.getNameAsString().equals(name));
    }

    /** Whether {@code st} is exactly {@code name = <expression>;} (a plain assignment). */
    private static boolean assigns(Statement st, String name) {
        if (!st.isExpressionStmt() || !st.asExpressionStmt().getExpression().isAssignExpr()) {
            return false;
        }
        com.github.javaparser.ast.expr.AssignExpr a =
                st.asExpressionStmt().getExpression().asAssignExpr();
        return a.getOperator() == com.github.javaparser.ast.expr.AssignExpr.Operator.ASSIGN
                && a.getTarget().isNameExpr()
                && a.getTarget().asNameExpr().getNameAsString().equals(name)
                && !mentions(new ExpressionStmt(a.getValue().clone()), name);
    }

    private static boolean uses(CharSequence code, String identifier) {
        return Pattern.compile("\\b" + Pattern.quote(identifier) + "\\b")
                .matcher(code)
                .find();
    }

    private static Expression qualifiedName(String qualifier) {
        return com.github.javaparser.StaticJavaParser.parseExpression(qualifier);
    }

    private static boolean accessible(NodeWithModifiers<?> member, boolean samePackage) {
        boolean isPrivate = member.getModifiers().stream().anyMatch(m -> m.getKeyword() == Modifier.Keyword.PRIVATE);
        boolean isPublic = member.getModifiers().stream().anyMatch(m -> m.getKeyword() == Modifier.Keyword.PUBLIC);
        return !isPrivate && (isPublic || samePackage);
    }

    /** Names declared inside {@code node}: local variables, lambda and catch parameters. */
    private static Set<String> declaredNames(Node node) {
        Set<String> names = new HashSet<>();
        node.findAll(VariableDeclarator.class).forEach(v -> names.add(v.getNameAsString()));
        node.findAll(Parameter.class).forEach(p -> names.add(p.getNameAsString()));
        return names;
    }

    private static Set<String> declaredNames(NodeList<Statement> statements) {
        Set<String> names = new HashSet<>();
        statements.forEach(s -> names.addAll(declaredNames(s)));
        return names;
    }

    /** The value a field of this type has before anything sets it. */
    private static Expression defaultValue(Type type) {
        if (!type.isPrimitiveType()) {
            return new NullLiteralExpr();
        }
        if (type.asPrimitiveType().getType() == com.github.javaparser.ast.type.PrimitiveType.Primitive.BOOLEAN) {
            return new BooleanLiteralExpr(false);
        }
        return new CastExpr(type.clone(), new IntegerLiteralExpr("0"));
    }

    private static void needImport(
            CompilationUnit cu, List<ImportDeclaration> imports, String name, boolean isStatic, boolean asterisk) {
        List<ImportDeclaration> present = new ArrayList<>(cu.getImports());
        present.addAll(imports);
        for (ImportDeclaration i : present) {
            if (i.getNameAsString().equals(name) && i.isStatic() == isStatic && i.isAsterisk() == asterisk) {
                return;
            }
            // an asterisk import of the package already covers a single-type import
            if (!isStatic
                    && !asterisk
                    && i.isAsterisk()
                    && !i.isStatic()
                    && name.startsWith(i.getNameAsString() + ".")
                    && name.lastIndexOf('.') == i.getNameAsString().length()) {
                return;
            }
        }
        if (!isStatic
                && !asterisk
                && name.lastIndexOf('.') > 0
                && name.substring(0, name.lastIndexOf('.')).equals(JavaSources.packageOf(cu))) {
            return;
        }
        if (asterisk && !isStatic && name.equals(JavaSources.packageOf(cu))) {
            return;
        }
        imports.add(new ImportDeclaration(name, isStatic, asterisk));
    }

    private static String freshName(TypeDeclaration<?> type, String base) {
        String name = base;
        for (int i = 2;
                !type.getMethodsByName(name).isEmpty()
                        || type.getFieldByName(name).isPresent();
                i++) {
            name = base + i;
        }
        return name;
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
