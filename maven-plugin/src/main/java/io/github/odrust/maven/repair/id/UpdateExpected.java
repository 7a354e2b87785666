package io.github.odrust.maven.repair.id;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.LiteralExpr;
import com.github.javaparser.ast.expr.LongLiteralExpr;
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
     * The line of {@code trace}'s deepest frame in {@code testClass} (or a class nested in it), in
     * the file {@code fileName}; -1 when none.
     */
    static int failingLine(String trace, String testClass, String fileName) {
        if (trace == null) {
            return -1;
        }
        Pattern frame = Pattern.compile("\\bat (" + Pattern.quote(testClass) + "(?:\\$[\\w$]+)?)\\.[\\w$<>]+\\("
                + Pattern.quote(fileName) + ":(\\d+)\\)");
        Matcher m = frame.matcher(trace);
        return m.find() ? Integer.parseInt(m.group(2)) : -1;
    }

    /**
     * {@code source} with the literal whose value is {@code expected} replaced by {@code actual},
     * as one result; or one that does not apply, saying why.
     */
    static DexFix.Result rewrite(String source, int line, String expected, String actual) {
        try {
            Src s = Src.parse(source, line);
            List<LiteralExpr> all = s.cu.findAll(LiteralExpr.class, l -> valueOf(l) != null);
            List<LiteralExpr> onLine = Src.onLine(filter(all, l -> expected.equals(valueOf(l))), line, l -> l);
            List<LiteralExpr> found = onLine;
            String scope = "on line " + line;
            if (found.isEmpty()) {
                MethodDeclaration method = enclosingMethod(s, line);
                if (method != null) {
                    found = filter(method.findAll(LiteralExpr.class), l -> expected.equals(valueOf(l)));
                    scope = "in " + method.getNameAsString() + "()";
                }
            }
            if (found.isEmpty()) {
                TypeDeclaration<?> type = enclosingType(s, line);
                if (type != null) {
                    List<LiteralExpr> constants = new ArrayList<>();
                    for (FieldDeclaration f : type.getFields()) {
                        f.getVariables()
                                .forEach(v -> v.getInitializer()
                                        .filter(i -> i instanceof LiteralExpr || i instanceof UnaryExpr)
                                        .ifPresent(i -> constants.addAll(filter(
                                                i.findAll(LiteralExpr.class), l -> expected.equals(valueOf(l))))));
                    }
                    found = constants;
                    scope = "in a field of " + type.getNameAsString();
                }
            }
            if (found.isEmpty()) {
                return DexFix.Result.notApplicable(s.where(line) + ": no literal with the expected value "
                        + shorten(expected) + " on the line, in its method or in a constant of its class");
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
            String text = literal(lit, actual);
            if (text == null) {
                return DexFix.Result.notApplicable(s.where(line) + ": the new value " + shorten(actual)
                        + " does not fit the " + kind(lit) + " literal " + s.snippet(lit));
            }
            Node target = lit.getParentNode().orElse(null) instanceof UnaryExpr
                    ? lit.getParentNode().get()
                    : lit;
            String old = s.text.substring(s.begin(target), s.end(target));
            String patched = s.apply(List.of(s.replace(target, old, text)));
            return DexFix.Result.patched(
                    patched,
                    "UpdateExpected: the expected " + kind(lit) + " at line " + Src.beginLine(lit) + " becomes "
                            + shorten(actual) + " (was " + shorten(expected) + "), the value the fixed code gives");
        } catch (NotApplicable n) {
            return DexFix.Result.notApplicable(n.getMessage());
        }
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
    static String literal(LiteralExpr like, String value) {
        if (like instanceof StringLiteralExpr || like instanceof TextBlockLiteralExpr) {
            return quote(value);
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
                    if (c < 0x20 || c == 0x7f) {
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
