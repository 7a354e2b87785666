package io.github.odrust.agent.runner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Surefire's {@code groups} and {@code excludedGroups} (docs/run-order.md), which discovery
 * applies: JUnit 5 tag expressions, JUnit 4 category classes.
 */
public final class Groups {
    private Groups() {}

    /** The comma-separated elements of {@code value}, trimmed; empty when it is null or blank. */
    public static List<String> split(String value) {
        if (value == null || value.trim().isEmpty()) {
            return Collections.emptyList();
        }
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.trim().isEmpty()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    /**
     * A group expression as Surefire's JUnit 4.7+ provider reads {@code groups} and
     * {@code excludedGroups} whole: names (category classes), {@code !}/{@code NOT},
     * {@code &}/{@code &&}/{@code AND}, {@code |}/{@code ||}/{@code OR} and {@code ,} (an or),
     * in that order of binding, and parentheses.
     */
    public interface Expr {
        /** Whether a test with these names (its categories and their supertypes) matches. */
        boolean matches(java.util.function.Predicate<String> has);
    }

    /** {@code value} as an expression; null when it is null or blank. */
    public static Expr parse(String value) {
        if (value == null || value.trim().isEmpty()) {
            return null;
        }
        Parser p = new Parser(value);
        Expr e = p.or();
        if (p.token() != null) {
            throw new IllegalArgumentException(
                    "'" + value + "': unexpected '" + p.token() + "' at character " + (p.at + 1));
        }
        return e;
    }

    private static final class Parser {
        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
        }

        /** The next token (a name, or an operator or parenthesis) without taking it; null at the end. */
        String token() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (at >= text.length()) {
                return null;
            }
            char c = text.charAt(at);
            if (c == '&' || c == '|') {
                return at + 1 < text.length() && text.charAt(at + 1) == c ? "" + c + c : "" + c;
            }
            if (c == '!' || c == '(' || c == ')' || c == ',') {
                return "" + c;
            }
            int end = at;
            while (end < text.length()
                    && (Character.isJavaIdentifierPart(text.charAt(end)) || text.charAt(end) == '.')) {
                end++;
            }
            if (end == at) {
                throw new IllegalArgumentException("'" + text + "': unexpected '" + c + "' at character " + (at + 1));
            }
            return text.substring(at, end);
        }

        private void take(String token) {
            at += token.length();
        }

        Expr or() {
            Expr left = and();
            for (String t = token(); t != null && isOr(t); t = token()) {
                take(t);
                Expr a = left;
                Expr b = and();
                left = has -> a.matches(has) || b.matches(has);
            }
            return left;
        }

        Expr and() {
            Expr left = not();
            for (String t = token(); t != null && isAnd(t); t = token()) {
                take(t);
                Expr a = left;
                Expr b = not();
                left = has -> a.matches(has) && b.matches(has);
            }
            return left;
        }

        Expr not() {
            String t = token();
            if (t == null) {
                throw new IllegalArgumentException("'" + text + "' ends where a group name was expected");
            }
            if (t.equals("!") || t.equalsIgnoreCase("not")) {
                take(t);
                Expr e = not();
                return has -> !e.matches(has);
            }
            if (t.equals("(")) {
                take(t);
                Expr e = or();
                if (!")".equals(token())) {
                    throw new IllegalArgumentException("'" + text + "': a '(' is not closed");
                }
                take(")");
                return e;
            }
            if (isOr(t) || isAnd(t) || t.equals(")")) {
                throw new IllegalArgumentException(
                        "'" + text + "': '" + t + "' at character " + (at + 1) + " where a group name was expected");
            }
            take(t);
            return has -> has.test(t);
        }

        private static boolean isOr(String t) {
            return t.equals("|") || t.equals("||") || t.equals(",") || t.equalsIgnoreCase("or");
        }

        private static boolean isAnd(String t) {
            return t.equals("&") || t.equals("&&") || t.equalsIgnoreCase("and");
        }
    }
}
