package io.github.odrust.maven.fork;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Surefire's {@code argLine}: late replacement of {@code @{property}} with the project's properties
 * as they are when the tests start (so values set by other plugins, such as JaCoCo's
 * {@code argLine}, are seen), {@code ${surefire.forkNumber}}, and splitting into arguments with the
 * same quoting rules as Surefire's command line.
 */
public final class ArgLine {
    /** {@code @{name}}, and a {@code ${name}} that Maven could not resolve when it configured Surefire. */
    private static final Pattern LATE = Pattern.compile("[@$]\\{([^}]+)}");

    private ArgLine() {}

    /** The result of replacing placeholders: the text, and the names that had no value. */
    public static final class Replaced {
        public final String text;
        public final List<String> unresolved;

        Replaced(String text, List<String> unresolved) {
            this.text = text;
            this.unresolved = unresolved;
        }
    }

    /**
     * Replaces {@code @{name}} (and a leftover {@code ${name}}) with {@code properties[name]}.
     * Surefire leaves an unknown placeholder in place, which the JVM then refuses; odrust replaces
     * it with nothing and reports it, so the caller can warn.
     */
    public static Replaced replace(String argLine, Properties properties, int forkNumber) {
        if (argLine == null) {
            return new Replaced("", List.of());
        }
        String s = argLine.replace("${surefire.forkNumber}", String.valueOf(forkNumber))
                .replace("${surefire.threadNumber}", String.valueOf(forkNumber));
        List<String> unresolved = new ArrayList<>();
        Matcher m = LATE.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = properties.getProperty(m.group(1));
            if (value == null) {
                unresolved.add(m.group(1));
                value = "";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return new Replaced(out.toString(), unresolved);
    }

    /** Splits on whitespace outside single or double quotes; quotes are removed. */
    public static List<String> split(String line) {
        List<String> args = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inArg = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inArg = true;
            } else if (Character.isWhitespace(c)) {
                if (inArg) {
                    args.add(cur.toString());
                    cur.setLength(0);
                    inArg = false;
                }
            } else {
                cur.append(c);
                inArg = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("argLine has an unclosed " + quote + " quote: " + line);
        }
        if (inArg) {
            args.add(cur.toString());
        }
        return args;
    }
}
