package io.github.odrust.maven.repair.id;

import static io.github.odrust.maven.repair.id.DexFix.reason;
import static io.github.odrust.maven.repair.id.Src.onLine;

import com.github.javaparser.JavaToken;
import com.github.javaparser.Range;
import com.github.javaparser.TokenRange;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.EnumConstantDeclaration;
import com.github.javaparser.ast.body.EnumDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.ArrayAccessExpr;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.ClassExpr;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.CatchClause;
import com.github.javaparser.ast.stmt.TryStmt;
import com.github.javaparser.ast.type.ReferenceType;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * FieldByName: where a test takes the fields of {@code T.class.getDeclaredFields()} by index
 * ({@code fields[0]}, or {@code T.class.getDeclaredFields()[1]} directly), each such element is
 * looked up by its name instead: {@code T.class.getDeclaredField("id")}, the name of the field at
 * that index in {@code T}'s declaration order (the order the JDK gave when the test passed clean;
 * javac writes fields in source order). The array itself stays, for any {@code .length} check. This
 * is how ormlite-core's maintainers fixed such tests (ced03ce); sorting the array instead keeps the
 * index, which then names another field than the one the test meant.
 *
 * <p>Applies only when {@code T} is declared in the same file (a class, interface or enum: its
 * fields are read from the source) and the call is on {@code T.class} or on a variable that holds
 * it ({@code Class<T> clazz = T.class;}, then {@code clazz.getDeclaredField("id")}), every use of
 * the array is a constant index or {@code .length}, and the array is not assigned again. {@code
 * getDeclaredField} throws {@code NoSuchFieldException}: a method (or constructor) that neither
 * declares nor catches it gets {@code throws NoSuchFieldException} added, unless it overrides
 * another. The caller verifies the candidate like any other.
 */
final class FieldByName {
    private FieldByName() {}

    /** Names of exceptions that cover {@code NoSuchFieldException}, as a throws or catch clause writes them. */
    private static final Set<String> COVERING =
            Set.of("NoSuchFieldException", "ReflectiveOperationException", "Exception", "Throwable");

    /** The candidates for the {@code getDeclaredFields()} calls on {@code line}, or one result that does not apply. */
    static List<Result> candidates(String source, int line) {
        try {
            Src s = Src.parse(source, line);
            List<MethodCallExpr> calls = onLine(
                    s.cu.findAll(
                            MethodCallExpr.class,
                            c -> c.getNameAsString().equals("getDeclaredFields")
                                    && c.getArguments().isEmpty()
                                    && c.getScope().isPresent()),
                    line,
                    MethodCallExpr::getName);
            if (calls.isEmpty()) {
                return reason(s.where(line) + " has no `.getDeclaredFields()` call");
            }
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (MethodCallExpr c : calls) {
                try {
                    results.add(candidate(s, c, calls));
                } catch (NotApplicable n) {
                    notes.add(n.getMessage());
                }
            }
            return results.isEmpty() ? reason(s.where(line) + ": " + String.join("; ", notes)) : results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    private static Result candidate(Src s, MethodCallExpr c, List<MethodCallExpr> calls) throws NotApplicable {
        String call = s.snippet(c);
        ClassExpr literal = classLiteral(s, c)
                .orElseThrow(() -> new NotApplicable(call + " is not called on a class literal (T.class) nor on a"
                        + " variable that holds one: which fields it has is not known from the source"));
        String type = literal.getType().asString();
        String simple = type.substring(type.lastIndexOf('.') + 1);
        List<String> names = declaredFields(s, simple, call);
        List<ArrayAccessExpr> indexed = new ArrayList<>();
        Node parent = c.getParentNode().orElse(null);
        if (parent instanceof ArrayAccessExpr && ((ArrayAccessExpr) parent).getName() == c) {
            indexed.add((ArrayAccessExpr) parent);
        } else if (parent instanceof VariableDeclarator
                && ((VariableDeclarator) parent)
                        .getInitializer()
                        .map(i -> i == c)
                        .orElse(false)) {
            VariableDeclarator v = (VariableDeclarator) parent;
            indexed.addAll(uses(s, v, call));
        } else {
            throw new NotApplicable(call + " is not taken by index (fields[0]) nor kept in a local variable:"
                    + " no field of it is named by its position");
        }
        List<Edit> edits = new ArrayList<>();
        List<String> said = new ArrayList<>();
        Node on = c.getScope().get();
        String scope = s.text.substring(s.begin(on), s.end(on));
        for (ArrayAccessExpr a : indexed) {
            String text = s.text.substring(s.begin(a), s.end(a));
            int k = constantIndex(a, text);
            if (k >= names.size()) {
                throw new NotApplicable(text + " at line " + Src.beginLine(a) + ": " + simple + " declares "
                        + names.size() + " fields in this file, so the field at index " + k
                        + " is one javac adds (this$0 of an inner class, say)");
            }
            String lookUp = scope + ".getDeclaredField(\"" + names.get(k) + "\")";
            edits.add(s.replace(a, text, lookUp));
            said.add(text + " → getDeclaredField(\"" + names.get(k) + "\")");
        }
        Optional<Edit> throwsClause = throwsClause(s, indexed);
        throwsClause.ifPresent(edits::add);
        return Result.patched(
                s.apply(edits),
                "FieldByName: the fields of " + call + " at " + Src.at(c, calls) + " taken by index are looked up"
                        + " by name, in " + simple + "'s declaration order: " + String.join(", ", said)
                        + throwsClause
                                .map(e -> "; the method declares NoSuchFieldException, which getDeclaredField throws")
                                .orElse(""));
    }

    /**
     * The class literal the call is made on: its scope, or the one a variable it names holds (a
     * local of the enclosing method declared once, or a final field of the file, never assigned
     * again: {@code Class<Foo> clazz = Foo.class;}).
     */
    private static Optional<ClassExpr> classLiteral(Src s, MethodCallExpr c) {
        Node scope = c.getScope().get();
        if (scope instanceof ClassExpr) {
            return Optional.of((ClassExpr) scope);
        }
        if (!(scope instanceof NameExpr)) {
            return Optional.empty();
        }
        String name = ((NameExpr) scope).getNameAsString();
        Node within = c;
        while (within != null && !(within instanceof CallableDeclaration)) {
            within = within.getParentNode().orElse(null);
        }
        if (within != null
                && ((CallableDeclaration<?>) within)
                        .getParameters().stream()
                                .anyMatch(p -> p.getNameAsString().equals(name))) {
            return Optional.empty(); // a parameter: any class
        }
        List<VariableDeclarator> found = new ArrayList<>();
        if (within != null) {
            found.addAll(within.findAll(
                    VariableDeclarator.class, v -> v.getNameAsString().equals(name)));
        }
        if (found.isEmpty()) {
            found.addAll(s.cu.findAll(
                    VariableDeclarator.class,
                    v -> v.getNameAsString().equals(name)
                            && v.getParentNode()
                                    .map(f -> f instanceof FieldDeclaration && ((FieldDeclaration) f).isFinal())
                                    .orElse(false)));
        }
        Node root = within != null ? within : s.cu;
        boolean assigned = !root.findAll(
                        AssignExpr.class,
                        a -> a.getTarget() instanceof NameExpr
                                && ((NameExpr) a.getTarget()).getNameAsString().equals(name))
                .isEmpty();
        if (found.size() != 1 || assigned) {
            return Optional.empty();
        }
        return found.get(0).getInitializer().filter(i -> i instanceof ClassExpr).map(i -> (ClassExpr) i);
    }

    /** The names of the fields {@code simple} declares, in source order; it must be declared once in the file. */
    private static List<String> declaredFields(Src s, String simple, String call) throws NotApplicable {
        @SuppressWarnings("rawtypes")
        List<TypeDeclaration> types =
                s.cu.findAll(TypeDeclaration.class, t -> t.getNameAsString().equals(simple));
        if (types.isEmpty()) {
            throw new NotApplicable(call + ": " + simple + " is not declared in " + s.file()
                    + ", so the order of its fields is not known from this source");
        }
        if (types.size() > 1) {
            throw new NotApplicable(call + ": " + s.file() + " declares " + types.size() + " types named " + simple);
        }
        TypeDeclaration<?> t = types.get(0);
        if (!(t instanceof ClassOrInterfaceDeclaration) && !(t instanceof EnumDeclaration)) {
            throw new NotApplicable(call + ": " + simple + " is a record or annotation, whose fields javac orders"
                    + " itself; FieldByName reads classes, interfaces and enums");
        }
        List<String> names = new ArrayList<>();
        if (t instanceof EnumDeclaration) {
            for (EnumConstantDeclaration e : ((EnumDeclaration) t).getEntries()) {
                names.add(e.getNameAsString());
            }
        }
        for (BodyDeclaration<?> m : t.getMembers()) {
            if (m instanceof FieldDeclaration) {
                for (VariableDeclarator v : ((FieldDeclaration) m).getVariables()) {
                    names.add(v.getNameAsString());
                }
            }
        }
        return names;
    }

    /** The uses of the array variable {@code v}: each a constant index; {@code .length} is left as it is. */
    private static List<ArrayAccessExpr> uses(Src s, VariableDeclarator v, String call) throws NotApplicable {
        String name = v.getNameAsString();
        Node block = v;
        while (block != null && !(block instanceof BlockStmt)) {
            block = block.getParentNode().orElse(null);
        }
        if (block == null) {
            throw new NotApplicable(call + " is kept in " + name + ", which is not a local variable");
        }
        List<ArrayAccessExpr> indexed = new ArrayList<>();
        for (NameExpr n : block.findAll(NameExpr.class, e -> e.getNameAsString().equals(name))) {
            int at = Src.beginLine(n);
            Node p = n.getParentNode().orElse(null);
            if (p instanceof ArrayAccessExpr && ((ArrayAccessExpr) p).getName() == n) {
                Node pp = p.getParentNode().orElse(null);
                if (pp instanceof AssignExpr && ((AssignExpr) pp).getTarget() == p) {
                    throw new NotApplicable(name + " is written to at line " + at + " (" + s.snippet(pp) + ")");
                }
                indexed.add((ArrayAccessExpr) p);
            } else if (p instanceof FieldAccessExpr
                    && ((FieldAccessExpr) p).getNameAsString().equals("length")) {
                continue;
            } else if (p instanceof AssignExpr && ((AssignExpr) p).getTarget() == n) {
                throw new NotApplicable(name + " is assigned again at line " + at + ": its elements at an index are"
                        + " not only those of " + call);
            } else {
                throw new NotApplicable(name + " is used at line " + at + " other than by a constant index or"
                        + " .length (" + s.snippet(p == null ? n : p) + "): that use would still see the JDK's order");
            }
        }
        if (indexed.isEmpty()) {
            throw new NotApplicable(call + " is kept in " + name + ", which is never taken by index");
        }
        return indexed;
    }

    private static int constantIndex(ArrayAccessExpr a, String text) throws NotApplicable {
        if (!(a.getIndex() instanceof IntegerLiteralExpr)) {
            throw new NotApplicable(text + " at line " + Src.beginLine(a) + " has no constant index");
        }
        Number k = ((IntegerLiteralExpr) a.getIndex()).asNumber();
        if (k.longValue() < 0 || k.longValue() > Integer.MAX_VALUE) {
            throw new NotApplicable(text + " at line " + Src.beginLine(a) + " has no usable index");
        }
        return k.intValue();
    }

    /**
     * {@code throws NoSuchFieldException} for the method or constructor of the uses, when it
     * neither declares nor catches an exception that covers it; empty when it need not.
     */
    private static Optional<Edit> throwsClause(Src s, List<ArrayAccessExpr> uses) throws NotApplicable {
        CallableDeclaration<?> m = null;
        for (ArrayAccessExpr u : uses) {
            if (caught(u)) {
                continue;
            }
            Node n = u;
            while (n != null && !(n instanceof CallableDeclaration) && !(n instanceof LambdaExpr)) {
                n = n.getParentNode().orElse(null);
            }
            if (!(n instanceof CallableDeclaration)) {
                throw new NotApplicable(s.snippet(u) + " at line " + Src.beginLine(u) + " is not in a method or"
                        + " constructor that could declare getDeclaredField's NoSuchFieldException");
            }
            if (m != null && m != n) {
                throw new NotApplicable(s.snippet(u) + " at line " + Src.beginLine(u) + " is in another method than "
                        + s.snippet(uses.get(0))
                        + " (an anonymous class's?), which would need NoSuchFieldException too");
            }
            m = (CallableDeclaration<?>) n;
        }
        if (m == null) {
            return Optional.empty();
        }
        CallableDeclaration<?> method = m;
        for (ReferenceType t : method.getThrownExceptions()) {
            if (COVERING.contains(simpleName(t.asString()))) {
                return Optional.empty();
            }
        }
        if (method.getAnnotationByName("Override").isPresent()) {
            throw new NotApplicable(method.getNameAsString() + " overrides another method and does not declare"
                    + " NoSuchFieldException, which getDeclaredField throws");
        }
        NodeList<ReferenceType> thrown = method.getThrownExceptions();
        if (!thrown.isEmpty()) {
            return Optional.of(s.insert(s.end(thrown.get(thrown.size() - 1)), ", NoSuchFieldException"));
        }
        return Optional.of(s.insert(afterParameters(s, method), " throws NoSuchFieldException"));
    }

    /**
     * The offset just after the {@code )} that closes the parameter list: a comment between it and
     * the body ({@code m() // note} with the brace on the next line) must not swallow the clause.
     */
    private static int afterParameters(Src s, CallableDeclaration<?> method) throws NotApplicable {
        Optional<JavaToken> t = method.getName().getTokenRange().map(TokenRange::getEnd);
        int depth = 0;
        while (t.isPresent()) {
            String text = t.get().getText();
            if (text.equals("(")) {
                depth++;
            } else if (text.equals(")") && --depth == 0) {
                Optional<Range> r = t.get().getRange();
                if (r.isPresent()) {
                    return s.offset(r.get().begin) + 1;
                }
                break;
            }
            t = t.get().getNextToken();
        }
        throw new NotApplicable("the parameter list of " + method.getNameAsString() + " was not found in the source");
    }

    /** Whether a try around {@code n} (within its method) catches an exception that covers NoSuchFieldException. */
    private static boolean caught(Node n) {
        Node child = n;
        Node p = n.getParentNode().orElse(null);
        while (p != null && !(p instanceof CallableDeclaration) && !(p instanceof LambdaExpr)) {
            if (p instanceof TryStmt && ((TryStmt) p).getTryBlock() == child) {
                for (CatchClause cc : ((TryStmt) p).getCatchClauses()) {
                    for (String t : cc.getParameter().getType().asString().split("\\|")) {
                        if (COVERING.contains(simpleName(t.trim()))) {
                            return true;
                        }
                    }
                }
            }
            child = p;
            p = p.getParentNode().orElse(null);
        }
        return false;
    }

    private static String simpleName(String type) {
        return type.substring(type.lastIndexOf('.') + 1);
    }
}
