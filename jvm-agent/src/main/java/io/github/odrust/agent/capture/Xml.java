package io.github.odrust.agent.capture;

/** Escaping for captures: XML 1.0 text and attributes; characters XML cannot hold become \\uXXXX. */
final class Xml {
    private Xml() {}

    static String text(String s) {
        return escape(s, false);
    }

    static String attr(String s) {
        return escape(s, true);
    }

    private static String escape(String s, boolean attribute) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = null;
            if (c == '&') {
                rep = "&amp;";
            } else if (c == '<') {
                rep = "&lt;";
            } else if (c == '>') {
                rep = "&gt;";
            } else if (attribute && c == '"') {
                rep = "&quot;";
            } else if (attribute && (c == '\n' || c == '\r' || c == '\t')) {
                rep = "&#" + (int) c + ";";
            } else if (c == '\r') {
                rep = "&#13;";
            } else if (!allowed(s, i)) {
                rep = String.format("\\u%04X", (int) c);
            } else if (Character.isHighSurrogate(c)) {
                if (b != null) {
                    b.append(c).append(s.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (rep != null) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(rep);
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }

    /** XML 1.0 Char: tab, newline, CR, U+0020-U+D7FF, U+E000-U+FFFD, and valid surrogate pairs. */
    private static boolean allowed(String s, int i) {
        char c = s.charAt(i);
        if (c == '\t' || c == '\n' || c == '\r') {
            return true;
        }
        if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) {
            return false;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return !Character.isLowSurrogate(c);
    }

    /** At most {@code max} characters, cut with an ellipsis (never inside a surrogate pair). */
    static String cut(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        int end = max - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }
}
