package io.github.odrust.maven.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.descriptor.MojoDescriptor;
import org.apache.maven.plugin.descriptor.Parameter;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Settings no odrust goal knows: a {@code -Dodrust.*} user property that is no goal's parameter
 * ({@code -Dodrust.stratgy=tuscan} would otherwise be ignored and the default used), and a key in
 * the plugin's {@code <configuration>} that is no goal's parameter (Maven 3.8 drops it silently).
 * Each is named with the nearest known one.
 */
public final class UnknownSettings {
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{(odrust\\.[^}]+)}");

    private UnknownSettings() {}

    /** What every goal of {@code plugin} reads: its {@code odrust.*} properties and parameter names. */
    public static final class Known {
        final Set<String> properties = new TreeSet<>();
        final Set<String> parameters = new TreeSet<>();

        public static Known of(PluginDescriptor plugin) {
            Known known = new Known();
            for (MojoDescriptor mojo : plugin.getMojos()) {
                for (Parameter p : mojo.getParameters()) {
                    known.parameters.add(p.getName());
                    if (p.getAlias() != null) {
                        known.parameters.add(p.getAlias());
                    }
                    known.add(p.getExpression());
                }
            }
            return known;
        }

        /** For tests: these properties and parameter names. */
        public static Known of(Collection<String> properties, Collection<String> parameters) {
            Known known = new Known();
            known.properties.addAll(properties);
            known.parameters.addAll(parameters);
            return known;
        }

        private void add(String expression) {
            if (expression == null) {
                return;
            }
            Matcher m = PROPERTY.matcher(expression);
            while (m.find()) {
                properties.add(m.group(1));
            }
        }
    }

    /**
     * Problems with the user's {@code -D} properties: each {@code odrust.*} one no goal reads, unless
     * the project itself defines it (a POM may keep {@code <odrust.version>} for its own use).
     */
    public static List<String> properties(Known known, Properties user, Properties project) {
        List<String> problems = new ArrayList<>();
        for (String name : new TreeSet<>(user.stringPropertyNames())) {
            if (!name.startsWith("odrust.") || known.properties.contains(name) || project.containsKey(name)) {
                continue;
            }
            problems.add("-D" + name + "=" + user.getProperty(name) + " is not a setting of any odrust goal"
                    + nearest(name, known.properties, "-D"));
        }
        return problems;
    }

    /** Problems with the plugin's {@code <configuration>} in the POM, and its executions'. */
    public static List<String> configuration(Known known, Plugin plugin) {
        List<String> problems = new ArrayList<>();
        if (plugin == null) {
            return problems;
        }
        check(known, (Xpp3Dom) plugin.getConfiguration(), "<configuration>", problems);
        for (PluginExecution e : plugin.getExecutions()) {
            check(known, (Xpp3Dom) e.getConfiguration(), "<execution> " + e.getId() + "'s <configuration>", problems);
        }
        return problems;
    }

    private static void check(Known known, Xpp3Dom config, String where, List<String> problems) {
        if (config == null) {
            return;
        }
        for (Xpp3Dom child : config.getChildren()) {
            String name = child.getName();
            if (!known.parameters.contains(name)) {
                problems.add("<" + name + "> in the odrust plugin's " + where + " is not a parameter of any odrust goal"
                        + nearest(name, known.parameters, "<"));
            }
        }
    }

    private static String nearest(String name, Set<String> candidates, String style) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(name.toLowerCase(), c.toLowerCase());
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        if (best == null || bestDistance > Math.max(3, name.length() / 3)) {
            return " (docs/configuration.md lists them all)";
        }
        return "-D".equals(style)
                ? "; did you mean -D" + best + "? (docs/configuration.md lists them all)"
                : "; did you mean <" + best + ">? (docs/configuration.md lists them all)";
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** The plugin's entry in the project's build, or null when the goal was called by its coordinates. */
    public static Plugin declared(List<Plugin> buildPlugins, String groupId, String artifactId) {
        for (Plugin p : buildPlugins) {
            if (groupId.equals(p.getGroupId()) && artifactId.equals(p.getArtifactId())) {
                return p;
            }
        }
        return null;
    }

    /** For messages: the problems as one text, one per line. */
    public static String text(List<String> problems) {
        return String.join("\n  ", problems);
    }
}
