package io.github.odrust.maven.repair.id;

import static io.github.odrust.maven.repair.id.DexFix.reason;
import static io.github.odrust.maven.repair.id.Src.onLine;
import static io.github.odrust.maven.repair.id.Src.spans;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.MethodReferenceExpr;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.List;

/**
 * DexFix's SortFields rewrite: the array of a reflection call ({@code getDeclaredFields()}, {@code
 * getMethods()}, ...), whose order the JDK does not promise, is sorted.
 */
final class SortFields {
    private SortFields() {}

    static final String[] REFLECTION = {
        "getDeclaredFields",
        "getFields",
        "getDeclaredMethods",
        "getMethods",
        "getDeclaredConstructors",
        "getConstructors"
    };

    /**
     * SortFields: the calls {@code <scope>.<method>()} on {@code line} (those that start there,
     * else those that span it), each as its own candidate, wrapped so that the array comes sorted:
     * fields and methods by name then {@code toString()} (overloads, and inherited members that
     * share a name, get a fixed order), constructors by {@code toString()}. The array's type is
     * kept ({@code Constructor<?>[]} through a parenthesized cast), so the expression fits
     * wherever the call did. With {@code java8 == false} (sources compiled for Java 7 or older, without
     * lambdas or method references): the array is sorted in place by {@code Arrays.sort} with an
     * anonymous {@code Comparator}, inside an anonymous class's method called right away.
     */
    static List<Result> candidates(String source, int line, String method, boolean java8) {
        if (!List.of(REFLECTION).contains(method)) {
            throw new IllegalArgumentException(
                    "SortFields sorts the arrays of " + String.join(", ", REFLECTION) + ", not " + method);
        }
        String prefix;
        String suffix;
        String order;
        if (method.endsWith("Fields")) {
            prefix = "java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Field::getName)"
                    + ".thenComparing(java.lang.reflect.Field::toString)).toArray(java.lang.reflect.Field[]::new)";
            order = "by name, then toString()";
        } else if (method.endsWith("Methods")) {
            prefix = "java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Method::getName)"
                    + ".thenComparing(java.lang.reflect.Method::toString)).toArray(java.lang.reflect.Method[]::new)";
            order = "by name, then toString()";
        } else {
            // Constructor<?>[]::new would be a generic array creation: make a raw array and cast it back.
            prefix = "((java.lang.reflect.Constructor<?>[]) java.util.Arrays.stream(";
            suffix = ").sorted(java.util.Comparator.comparing(java.lang.reflect.Constructor::toString))"
                    + ".toArray(java.lang.reflect.Constructor[]::new))";
            order = "by toString()";
        }
        String how = "java.util.Arrays.stream(...).sorted(...).toArray(...)";
        if (!java8) {
            String type = method.endsWith("Fields")
                    ? "java.lang.reflect.Field"
                    : method.endsWith("Methods") ? "java.lang.reflect.Method" : "java.lang.reflect.Constructor<?>";
            String compare = type.endsWith("Constructor<?>")
                    ? "return x.toString().compareTo(y.toString());"
                    : "int c = x.getName().compareTo(y.getName()); return c != 0 ? c : x.toString().compareTo(y.toString());";
            prefix = "new Object() { " + type + "[] sorted(" + type
                    + "[] a) { java.util.Arrays.sort(a, new java.util.Comparator<" + type + ">() { public int compare("
                    + type + " x, " + type + " y) { " + compare + " } }); return a; } }.sorted(";
            suffix = ")";
            how = "Arrays.sort with a Comparator, for Java 7";
        }
        try {
            Src s = Src.parse(source, line);
            List<MethodCallExpr> calls = onLine(
                    s.cu.findAll(
                            MethodCallExpr.class,
                            c -> c.getNameAsString().equals(method)
                                    && c.getArguments().isEmpty()
                                    && c.getScope().isPresent()),
                    line,
                    MethodCallExpr::getName);
            if (calls.isEmpty()) {
                boolean reference =
                        s
                                .cu
                                .findAll(
                                        MethodReferenceExpr.class,
                                        r -> r.getIdentifier().equals(method))
                                .stream()
                                .anyMatch(r -> spans(r, line));
                return reason(s.where(line) + " has no `." + method + "()` call"
                        + (reference
                                ? " (it has a method reference ::" + method + "; SortFields rewrites calls only)"
                                : ""));
            }
            List<Result> results = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (MethodCallExpr c : calls) {
                String call = s.snippet(c);
                if (alreadySorted(c)) {
                    notes.add(call + " is sorted already");
                    continue;
                }
                if (c.getParentNode().orElse(null) instanceof ExpressionStmt) {
                    notes.add(call + " is a statement whose result is not used");
                    continue;
                }
                List<Edit> edits = List.of(s.insert(s.begin(c), prefix), s.insert(s.end(c), suffix));
                results.add(Result.patched(
                        s.apply(edits),
                        "SortFields: " + call + " at " + Src.at(c, calls) + " is sorted " + order + " (" + how + ")"));
            }
            return results.isEmpty() ? reason(s.where(line) + ": " + String.join("; ", notes)) : results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /** Whether the call is already {@code Arrays.stream(call).sorted(..)}. */
    private static boolean alreadySorted(MethodCallExpr c) {
        Node p = c.getParentNode().orElse(null);
        if (!(p instanceof MethodCallExpr)
                || !((MethodCallExpr) p).getNameAsString().equals("stream")) {
            return false;
        }
        Node q = p.getParentNode().orElse(null);
        return q instanceof MethodCallExpr
                && ((MethodCallExpr) q).getNameAsString().equals("sorted")
                && ((MethodCallExpr) q).getScope().map(x -> x == p).orElse(false);
    }
}
