package io.github.odrust.maven.repair.id;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import com.github.javaparser.ast.expr.TextBlockLiteralExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The second half of what maintainers merge for an implementation-dependent test once the code
 * is made deterministic (SortFields, HashToLinkedHash): the test's expected literal, written for
 * the order one JDK happened to give, rewritten to the value the fixed code now produces. The
 * values come from the failed assertion (its {@code expected}/{@code actual} as the agent read
 * them, else an {@code expected:<..> but was:<..>} message); the literal is the one whose value is
 * the expected one: on the failing line, else in the failing method, else a constant of the class.
 * Only a string literal whose new value has exactly its characters in another order is rewritten:
 * a reordering is what a deterministic order changes; any other difference could be a wrong fix
 * that the rewrite would bless.
 */
final class UpdateExpected {
    private UpdateExpected() {}

    /** {@code expected:<X> but was:<Y>} (JUnit 4's {@code assertEquals} of objects and numbers). */
    private static final Pattern JUNIT4 = Pattern.compile("(?s)(?:.*\\s)?expected:\\s?<(.*)> but was:\\s?<(.*)>");

    /**
     * The expected and actual values of a failure: {@code expected}/{@code actual} when the agent
     * read them from the assertion, else parsed from the message; null when unknown.
     */
    static String[] values(String expected, String actual, String message) {
        if (expected != null && actual != null) {
            return new String[] {expected, actual};
        }
        if (message == null) {
            return null;
        }
        Matcher m = JUNIT4.matcher(message.trim());
        return m.matches() ? new String[] {m.group(1), m.group(2)} : null;
    }

    /**
     * The lines of {@code trace}'s frames in {@code testClass} (or a class nested in it), in the
     * file {@code fileName}, deepest first, each once: the assertion may sit in a helper method,
     * its expected literal in the test that calls it.
     */
    static List<Integer> failingLines(String trace, String testClass, String fileName) {
        List<Integer> lines = new ArrayList<>();
        if (trace == null) {
            return lines;
        }
        Pattern frame = Pattern.compile("\\bat (" + Pattern.quote(testClass) + "(?:\\$[\\w$]+)?)\\.[\\w$<>]+\\("
                + Pattern.quote(fileName) + ":(\\d+)\\)");
        Matcher m = frame.matcher(trace);
        while (m.find()) {
            int line = Integer.parseInt(m.group(2));
            if (!lines.contains(line)) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Calls whose argument is what an assertion compares against (JUnit, AssertJ, Hamcrest, Truth). */
    static boolean comparesArgument(String call) {
        return call.startsWith("assert")
                || call.startsWith("isEqualTo")
                || call.equals("hasToString")
                || call.equals("equalTo")
                || call.equals("is")
                || call.equals("isEqualToIgnoringWhitespace");
    }

    /** Whether {@code n} is an argument of a call that compares it ({@link #comparesArgument}). */
    private static boolean comparedArgument(Node n) {
        Node p = n.getParentNode().orElse(null);
        if (p instanceof UnaryExpr) {
            n = p;
            p = p.getParentNode().orElse(null);
        }
        return p instanceof MethodCallExpr
                && ((MethodCallExpr) p).getArguments().contains(n)
                && comparesArgument(((MethodCallExpr) p).getNameAsString());
    }

    /**
     * {@code source} with the literal whose value is {@code expected} replaced by {@code actual},
     * as one result; or one that does not apply, saying why. When nothing is found and both values
     * are quoted (AssertJ prints a String with its quotes), the values without them are tried.
     */
    static DexFix.Result rewrite(String source, int line, String expected, String actual) {
        DexFix.Result r = rewriteAs(source, line, expected, actual);
        if (!r.applies() && quoted(expected) && quoted(actual)) {
            DexFix.Result unquoted = rewriteAs(
                    source,
                    line,
                    expected.substring(1, expected.length() - 1),
                    actual.substring(1, actual.length() - 1));
            return unquoted.applies() ? unquoted : r;
        }
        return r;
    }

    private static boolean quoted(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"");
    }

    /**
     * The literal is looked for where an assertion compares it, never where it is the test's
     * input: an argument of the comparing call on the failing line; else the initializer of a
     * local of the enclosing method used once, as such an argument on that line; else the same
     * of a private field of the enclosing class.
     */
    private static DexFix.Result rewriteAs(String source, int line, String expected, String actual) {
        try {
            Src s = Src.parse(source, line);
            List<LiteralExpr> all = s.cu.findAll(LiteralExpr.class, l -> valueOf(l) != null);
            List<LiteralExpr> onLine = Src.onLine(filter(all, l -> expected.equals(valueOf(l))), line, l -> l);
            List<LiteralExpr> found = filter(onLine, UpdateExpected::comparedArgument);
            String scope = "on line " + line;
            if (found.isEmpty()) {
                MethodDeclaration method = enclosingMethod(s, line);
                if (method != null) {
                    found = filter(
                            method.findAll(LiteralExpr.class),
                            l -> expected.equals(valueOf(l)) && usedOnceToCompare(l, method, line, false));
                    scope = "in " + method.getNameAsString() + "()";
                }
            }
            if (found.isEmpty()) {
                TypeDeclaration<?> type = enclosingType(s, line);
                if (type != null) {
                    List<LiteralExpr> constants = new ArrayList<>();
                    for (FieldDeclaration f : type.getFields()) {
                        if (!f.isPrivate()) {
                            continue; // another class may use it (and inline it, if constant)
                        }
                        f.getVariables()
                                .forEach(v -> v.getInitializer()
                                        .filter(i -> i instanceof LiteralExpr || i instanceof UnaryExpr)
                                        .ifPresent(i -> constants.addAll(filter(
                                                i.findAll(LiteralExpr.class),
                                                l -> expected.equals(valueOf(l))
                                                        && usedOnceToCompare(l, type, line, true)))));
                    }
                    found = constants;
                    scope = "in a field of " + type.getNameAsString();
                }
            }
            if (found.isEmpty()) {
                return DexFix.Result.notApplicable(s.where(line) + ": no literal with the expected value "
                        + shorten(expected) + " compared on the line (as an assertion's argument, or a local or"
                        + " private field used only there)");
            }
            if (found.size() > 1) {
                return DexFix.Result.notApplicable(s.where(line) + ": " + found.size() + " literals "
                        + scope + " have the expected value " + shorten(expected) + "; which one the assertion"
                        + " compares is not clear");
            }
            LiteralExpr lit = found.get(0);
            if (!(lit instanceof StringLiteralExpr || lit instanceof TextBlockLiteralExpr)) {
                return DexFix.Result.notApplicable(s.where(line) + ": the expected value is a number ("
                        + s.snippet(lit) + "); a hash of another order cannot be told from a wrong fix's, so"
                        + " numbers are not updated");
            }
            if (!reordering(expected, actual)) {
                return DexFix.Result.notApplicable(s.where(line) + ": the fixed code gives " + shorten(actual)
                        + ", which is not the expected " + shorten(expected) + " in another order (other"
                        + " characters): only an order is updated, never a value");
            }
            Node target = lit.getParentNode().orElse(null) instanceof UnaryExpr
                    ? lit.getParentNode().get()
                    : lit;
            String old = s.text.substring(s.begin(target), s.end(target));
            String text = literal(lit, actual, old.contains("\\u"));
            if (text == null) {
                return DexFix.Result.notApplicable(s.where(line) + ": the new value " + shorten(actual)
                        + " does not fit the " + kind(lit) + " literal " + s.snippet(lit));
            }
            String patched = s.apply(List.of(s.replace(target, old, text)));
            return DexFix.Result.patched(
                    patched,
                    "UpdateExpected: the expected " + kind(lit) + " at line " + Src.beginLine(lit) + " becomes "
                            + shorten(actual) + " (was " + shorten(expected) + "), the value the fixed code gives");
        } catch (NotApplicable n) {
            return DexFix.Result.notApplicable(n.getMessage());
        }
    }

    /**
     * Whether the literal initializes a variable (a local of {@code scope}, or a field of it when
     * {@code field}) whose name {@code scope} uses exactly once: as a compared argument on {@code line}.
     */
    private static boolean usedOnceToCompare(LiteralExpr l, Node scope, int line, boolean field) {
        Node p = l.getParentNode().orElse(null);
        if (p instanceof UnaryExpr) {
            p = p.getParentNode().orElse(null);
        }
        if (!(p instanceof com.github.javaparser.ast.body.VariableDeclarator)) {
            return false;
        }
        com.github.javaparser.ast.body.VariableDeclarator v = (com.github.javaparser.ast.body.VariableDeclarator) p;
        boolean isField = v.getParentNode().orElse(null) instanceof FieldDeclaration;
        if (isField != field) {
            return false;
        }
        String name = v.getNameAsString();
        List<Node> uses = new ArrayList<>();
        uses.addAll(scope.findAll(
                com.github.javaparser.ast.expr.NameExpr.class,
                n -> n.getNameAsString().equals(name)));
        uses.addAll(scope.findAll(
                com.github.javaparser.ast.expr.FieldAccessExpr.class,
                n -> n.getNameAsString().equals(name)));
        return uses.size() == 1 && Src.spans(uses.get(0), line) && comparedArgument(uses.get(0));
    }

    /** Whether {@code b} has exactly the characters of {@code a}, in some order (and differs from it). */
    static boolean reordering(String a, String b) {
        if (a.equals(b) || a.length() != b.length()) {
            return false;
        }
        char[] x = a.toCharArray();
        char[] y = b.toCharArray();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        return java.util.Arrays.equals(x, y);
    }

    private static <T> List<T> filter(List<T> in, java.util.function.Predicate<T> keep) {
        List<T> out = new ArrayList<>();
        for (T t : in) {
            if (keep.test(t)) {
                out.add(t);
            }
        }
        return out;
    }

    /** The value a literal stands for, as an assertion prints it; null for literals this does not rewrite. */
    static String valueOf(LiteralExpr l) {
        if (l instanceof TextBlockLiteralExpr) {
            return ((TextBlockLiteralExpr) l).asString();
        }
        if (l instanceof StringLiteralExpr) {
            return ((StringLiteralExpr) l).asString();
        }
        boolean negative = l.getParentNode().orElse(null) instanceof UnaryExpr
                && ((UnaryExpr) l.getParentNode().get()).getOperator() == UnaryExpr.Operator.MINUS;
        try {
            if (l instanceof IntegerLiteralExpr) {
                long v = ((IntegerLiteralExpr) l).asNumber().longValue();
                return Long.toString(negative ? -v : v);
            }
            if (l instanceof LongLiteralExpr) {
                long v = ((LongLiteralExpr) l).asNumber().longValue();
                return Long.toString(negative ? -v : v);
            }
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    private static String kind(LiteralExpr l) {
        return l instanceof StringLiteralExpr || l instanceof TextBlockLiteralExpr
                ? "string"
                : l instanceof LongLiteralExpr ? "long" : "int";
    }

    /** The Java text of a literal of {@code like}'s kind holding {@code value}; null when it does not fit. */
    static String literal(LiteralExpr like, String value, boolean unicodeEscapes) {
        if (like instanceof StringLiteralExpr || like instanceof TextBlockLiteralExpr) {
            return quote(value, unicodeEscapes);
        }
        try {
            long v = Long.parseLong(value.trim());
            if (like instanceof IntegerLiteralExpr) {
                return v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? null : Long.toString(v);
            }
            return v + "L";
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A Java string literal of {@code s}. */
    static String quote(String s) {
        return quote(s, false);
    }

    /** A Java string literal of {@code s}; with {@code unicodeEscapes}, characters past ASCII as {@code \\uXXXX}. */
    static String quote(String s, boolean unicodeEscapes) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f || (unicodeEscapes && c > 0x7e)) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    private static MethodDeclaration enclosingMethod(Src s, int line) {
        MethodDeclaration best = null;
        for (MethodDeclaration m : s.cu.findAll(MethodDeclaration.class, m -> Src.spans(m, line))) {
            if (best == null || m.isDescendantOf(best)) {
                best = m;
            }
        }
        return best;
    }

    private static TypeDeclaration<?> enclosingType(Src s, int line) {
        TypeDeclaration<?> best = null;
        for (TypeDeclaration<?> t : s.cu.findAll(TypeDeclaration.class, t -> Src.spans(t, line))) {
            if (best == null || t.isDescendantOf(best)) {
                best = t;
            }
        }
        return best;
    }

    private static String shorten(String v) {
        String q = quote(v);
        return q.length() <= 50 ? q : q.substring(0, 47) + "...\"";
    }
}
