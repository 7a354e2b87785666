package io.github.odrust.maven.fork;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.shared.utils.cli.CommandLineException;
import org.apache.maven.shared.utils.cli.CommandLineUtils;

/**
 * Surefire's {@code argLine}: late replacement of {@code @{property}} with the project's properties
 * as they are when the tests start (so values set by other plugins, such as JaCoCo's
 * {@code argLine}, are seen), {@code ${surefire.forkNumber}}, and splitting into arguments as
 * Surefire does, with maven-shared-utils' {@code CommandLineUtils}.
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

    /**
     * Splits the way Surefire does: every whitespace character becomes a space, then
     * maven-shared-utils' {@link CommandLineUtils#translateCommandline} splits on spaces outside
     * single or double quotes and removes the quotes (an empty argument is dropped).
     *
     * @throws IllegalArgumentException when a quote is not closed
     */
    public static List<String> split(String line) {
        try {
            return List.of(CommandLineUtils.translateCommandline(line.replaceAll("\\s", " ")));
        } catch (CommandLineException e) {
            throw new IllegalArgumentException("argLine has an unclosed quote: " + line, e);
        }
    }
}
