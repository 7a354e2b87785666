package io.github.odrust.maven.repair.id;

import static io.github.odrust.maven.repair.id.DexFix.reason;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import io.github.odrust.maven.repair.id.DexFix.JsonLibrary;
import io.github.odrust.maven.repair.id.DexFix.Result;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * DexFix's JSONAssertion rewrite: a comparison of a JSON text literal compares JSON as JSON, so the
 * order of an object's keys no longer matters (JSONassert, Gson or Jackson).
 */
final class JsonAssertion {
    private JsonAssertion() {}

    /**
     * JSONAssertion: in the test method {@code method}, each assertion that compares a JSON text
     * literal (a string or text block whose text starts with <code>{</code> or <code>[</code>, or a
     * concatenation starting with one) with another value compares them as JSON instead, so the
     * order of an object's keys no longer matters: JUnit {@code assertEquals(json, actual)} (a
     * message first or last kept) and AssertJ {@code assertThat(actual).isEqualTo(json)}. With
     * JSONassert the assertion becomes {@code JSONAssert.assertEquals(json, actual, true)} (strict:
     * arrays keep their order) and the method declares {@code throws Exception} when it must; with
     * Gson both sides are parsed with {@code JsonParser.parseString}; with Jackson with
     * {@code ObjectMapper.readTree}.
     *
     * @param libraries the JSON libraries on the test classpath, best first
     * @return one candidate per assertion rewritten (each alone), or one result that does not apply
     */
    static List<Result> candidates(String source, String method, List<JsonLibrary> libraries) {
        try {
            Src s = Src.parse(source, 1);
            List<MethodDeclaration> methods = s.cu.findAll(
                    MethodDeclaration.class,
                    m -> m.getNameAsString().equals(method) && m.getBody().isPresent());
            if (methods.isEmpty()) {
                return reason(s.file() + " has no method " + method + " with a body");
            }
            if (libraries.isEmpty()) {
                return reason(
                        "no JSON library on the test classpath (JSONassert, Gson or Jackson) to compare JSON texts with");
            }
            JsonLibrary lib = libraries.get(0);
            List<Result> results = new ArrayList<>();
            for (MethodDeclaration m : methods) {
                List<MethodCallExpr> calls = m.findAll(MethodCallExpr.class);
                calls.sort(Comparator.comparingInt(c -> s.begin(c)));
                for (MethodCallExpr c : calls) {
                    Edit edit = jsonEdit(s, c, lib);
                    if (edit == null) {
                        continue;
                    }
                    List<Edit> edits = new ArrayList<>();
                    edits.add(edit);
                    String throwsNote = "";
                    if ((lib == JsonLibrary.JSONASSERT || lib == JsonLibrary.JACKSON) && !throwsException(m)) {
                        edits.add(throwsEdit(s, m));
                        throwsNote = "; " + method + " declares throws Exception";
                    }
                    results.add(Result.patched(
                            s.apply(edits),
                            "JSONAssertion: the assertion at line "
                                    + c.getBegin().get().line
                                    + " compares JSON as JSON ("
                                    + (lib == JsonLibrary.JSONASSERT
                                            ? "JSONAssert, strict"
                                            : lib == JsonLibrary.JACKSON ? "Jackson's readTree" : "Gson's JsonParser")
                                    + ")" + throwsNote));
                }
            }
            if (results.isEmpty()) {
                return reason(
                        method + " in " + s.file() + " compares no JSON text literal (assertEquals or AssertJ isEqualTo"
                                + " with a string starting with { or [)");
            }
            return results;
        } catch (NotApplicable n) {
            return reason(n.getMessage());
        }
    }

    /** The edit that makes {@code c} compare JSON as JSON, or null when it is no such assertion. */
    private static Edit jsonEdit(Src s, MethodCallExpr c, JsonLibrary lib) throws NotApplicable {
        String name = c.getNameAsString();
        if (name.equals("assertEquals")
                && (c.getArguments().size() == 2 || c.getArguments().size() == 3)) {
            List<Expression> args = c.getArguments();
            int json = -1;
            for (int i = 0; i < args.size(); i++) {
                if (isJsonLiteral(args.get(i))) {
                    json = i;
                }
            }
            if (json < 0) {
                return null;
            }
            int actual;
            if (args.size() == 2) {
                actual = 1 - json;
            } else if (json == 1) {
                actual = args.get(0) instanceof StringLiteralExpr ? 2 : 0; // JUnit 4: message first; JUnit 5: last
            } else {
                actual = 1;
            }
            String expectedText = s.text.substring(s.begin(args.get(json)), s.end(args.get(json)));
            String actualText = s.text.substring(s.begin(args.get(actual)), s.end(args.get(actual)));
            String whole = s.text.substring(s.begin(c), s.end(c));
            if (lib == JsonLibrary.JSONASSERT) {
                String exp = json < actual ? expectedText : actualText;
                String act = json < actual ? actualText : expectedText;
                return s.replace(
                        c, whole, "org.skyscreamer.jsonassert.JSONAssert.assertEquals(" + exp + ", " + act + ", true)");
            }
            // keep the call (and its message); parse both sides
            List<Edit> inner = new ArrayList<>();
            inner.add(new Edit(
                    s.begin(args.get(json)) - s.begin(c),
                    s.end(args.get(json)) - s.begin(c),
                    parse(lib, expectedText)));
            inner.add(new Edit(
                    s.begin(args.get(actual)) - s.begin(c),
                    s.end(args.get(actual)) - s.begin(c),
                    parse(lib, actualText)));
            return s.replace(c, whole, applyTo(whole, inner));
        }
        if (name.equals("isEqualTo")
                && c.getArguments().size() == 1
                && isJsonLiteral(c.getArgument(0))
                && c.getScope().isPresent()
                && c.getScope().get() instanceof MethodCallExpr
                && ((MethodCallExpr) c.getScope().get()).getNameAsString().equals("assertThat")
                && ((MethodCallExpr) c.getScope().get()).getArguments().size() == 1) {
            MethodCallExpr assertThat = (MethodCallExpr) c.getScope().get();
            Expression actualExpr = assertThat.getArgument(0);
            String expectedText = s.text.substring(s.begin(c.getArgument(0)), s.end(c.getArgument(0)));
            String actualText = s.text.substring(s.begin(actualExpr), s.end(actualExpr));
            String whole = s.text.substring(s.begin(c), s.end(c));
            if (lib == JsonLibrary.JSONASSERT) {
                return s.replace(
                        c,
                        whole,
                        "org.skyscreamer.jsonassert.JSONAssert.assertEquals(" + expectedText + ", " + actualText
                                + ", true)");
            }
            List<Edit> inner = new ArrayList<>();
            inner.add(
                    new Edit(s.begin(actualExpr) - s.begin(c), s.end(actualExpr) - s.begin(c), parse(lib, actualText)));
            inner.add(new Edit(
                    s.begin(c.getArgument(0)) - s.begin(c),
                    s.end(c.getArgument(0)) - s.begin(c),
                    parse(lib, expectedText)));
            return s.replace(c, whole, applyTo(whole, inner));
        }
        return null;
    }

    private static String parse(JsonLibrary lib, String expr) {
        switch (lib) {
            case GSON:
                return "com.google.gson.JsonParser.parseString(" + expr + ")";
            case GSON_LEGACY:
                return "new com.google.gson.JsonParser().parse(" + expr + ")";
            default:
                return "new com.fasterxml.jackson.databind.ObjectMapper().readTree(" + expr + ")";
        }
    }

    private static String applyTo(String text, List<Edit> edits) {
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt((Edit e) -> e.start));
        StringBuilder b = new StringBuilder();
        int at = 0;
        for (Edit e : sorted) {
            b.append(text, at, e.start).append(e.text);
            at = e.end;
        }
        return b.append(text.substring(at)).toString();
    }

    private static boolean isJsonLiteral(Expression e) {
        Expression first = e;
        while (first instanceof BinaryExpr && ((BinaryExpr) first).getOperator() == BinaryExpr.Operator.PLUS) {
            first = ((BinaryExpr) first).getLeft();
        }
        String value = null;
        if (first instanceof StringLiteralExpr) {
            value = ((StringLiteralExpr) first).getValue();
        } else if (first instanceof TextBlockLiteralExpr) {
            value = ((TextBlockLiteralExpr) first).getValue();
        }
        if (value == null) {
            return false;
        }
        String v = value.trim();
        return v.startsWith("{") || v.startsWith("[");
    }

    private static boolean throwsException(MethodDeclaration m) {
        return m.getThrownExceptions().stream().anyMatch(t -> {
            String n = t.asString();
            return n.equals("Exception")
                    || n.equals("java.lang.Exception")
                    || n.equals("Throwable")
                    || n.equals("java.lang.Throwable");
        });
    }

    /** {@code throws Exception} added to the method's declaration (or {@code , Exception} to its clause). */
    private static Edit throwsEdit(Src s, MethodDeclaration m) {
        if (m.getThrownExceptions().isNonEmpty()) {
            return s.insert(s.end(m.getThrownExceptions().getLast().get()), ", Exception");
        }
        int body = s.begin(m.getBody().get());
        boolean space = body > 0 && Character.isWhitespace(s.text.charAt(body - 1));
        return s.insert(body, (space ? "" : " ") + "throws Exception" + (space ? " " : " "));
    }
}
