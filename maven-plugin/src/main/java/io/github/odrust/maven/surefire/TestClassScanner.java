package io.github.odrust.maven.surefire;

import java.io.File;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * Finds the test classes Surefire would run, in the order it would run them: the compiled classes
 * under {@code testClassesDirectory} matching {@code includes} and not {@code excludes}, listed the
 * way Surefire's scanner lists them (directory order, depth first) and then sorted by
 * {@code runOrder}. Warnings for settings it cannot reproduce go to {@link #warnings()}.
 */
public final class TestClassScanner {
    private final List<String> warnings = new ArrayList<>();

    public List<String> warnings() {
        return warnings;
    }

    public List<String> scan(SurefireSettings settings) {
        File root = settings.testClassesDirectory;
        if (root == null || !root.isDirectory()) {
            return new ArrayList<>();
        }
        List<Pattern> includes = compileAll(settings.includes.isEmpty() ? SurefireSettings.defaultIncludes() : settings.includes);
        List<Pattern> excludes = compileAll(settings.excludes.isEmpty() ? SurefireSettings.defaultExcludes() : settings.excludes);
        List<String> classes = new ArrayList<>();
        walk(root, "", includes, excludes, classes);
        return order(classes, settings);
    }

    private static void walk(File dir, String prefix, List<Pattern> includes, List<Pattern> excludes, List<String> out) {
        File[] entries = dir.listFiles();
        if (entries == null) {
            return;
        }
        for (File f : entries) {
            String rel = prefix + f.getName();
            if (f.isDirectory()) {
                walk(f, rel + "/", includes, excludes, out);
            } else if (rel.endsWith(".class")) {
                String path = rel.substring(0, rel.length() - ".class".length());
                if (matchesAny(includes, path) && !matchesAny(excludes, path)) {
                    out.add(path.replace('/', '.'));
                }
            }
        }
    }

    private List<String> order(List<String> classes, SurefireSettings settings) {
        String runOrder = settings.runOrder == null ? "filesystem" : settings.runOrder.trim().toLowerCase();
        List<String> result = new ArrayList<>(classes);
        for (String part : runOrder.split(",")) {
            switch (part.trim()) {
                case "":
                case "filesystem":
                    break;
                case "alphabetical":
                    result.sort(Comparator.naturalOrder());
                    break;
                case "reversealphabetical":
                    result.sort(Comparator.reverseOrder());
                    break;
                case "hourly":
                    boolean even = LocalDateTime.now().getHour() % 2 == 0;
                    result.sort(even ? Comparator.naturalOrder() : Comparator.reverseOrder());
                    break;
                case "random":
                    long seed = settings.runOrderRandomSeed != null ? settings.runOrderRandomSeed : 0L;
                    if (settings.runOrderRandomSeed == null) {
                        warnings.add("runOrder=random without runOrder.random.seed: mvn test uses a new order every run;"
                                + " odrust's original order uses seed 0. Set runOrder.random.seed to pin it.");
                    }
                    Collections.shuffle(result, new Random(seed));
                    break;
                default:
                    warnings.add("runOrder=" + part.trim() + " depends on Surefire's run statistics, which odrust does not"
                            + " read; the original order uses the filesystem order instead.");
            }
        }
        return result;
    }

    private static List<Pattern> compileAll(List<String> patterns) {
        List<Pattern> out = new ArrayList<>();
        for (String p : patterns) {
            for (String part : p.split(",")) {
                if (!part.trim().isEmpty()) {
                    out.add(compile(part.trim()));
                }
            }
        }
        return out;
    }

    /**
     * Turns a Surefire include/exclude into a regex over class paths without extension
     * ({@code com/acme/FooTest}). Supports Ant globs ({@code **}, {@code *}, {@code ?}), a trailing
     * {@code .java} or {@code .class}, a bare class name ({@code FooTest}) and {@code %regex[...]}.
     */
    static Pattern compile(String pattern) {
        String p = pattern.replace('\\', '/');
        if (p.startsWith("%regex[") && p.endsWith("]")) {
            String body = p.substring("%regex[".length(), p.length() - 1);
            body = body.replace("\\.java", "").replace("\\.class", "").replace(".java", "").replace(".class", "");
            return Pattern.compile(body.replace("\\/", "/") + "(\\.class)?");
        }
        int hash = p.indexOf('#');
        if (hash >= 0) {
            p = p.substring(0, hash); // method filters are applied by the test framework, not here
        }
        if (p.endsWith(".java") || p.endsWith(".class")) {
            p = p.substring(0, p.lastIndexOf('.'));
        }
        if (!p.contains("/")) {
            p = p.contains(".") && !p.contains("*") ? p.replace('.', '/') : "**/" + p;
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '*' && i + 1 < p.length() && p.charAt(i + 1) == '*') {
                boolean slash = i + 2 < p.length() && p.charAt(i + 2) == '/';
                re.append(slash ? "(?:.*/)?" : ".*");
                i += slash ? 2 : 1;
            } else if (c == '*') {
                re.append("[^/]*");
            } else if (c == '?') {
                re.append("[^/]");
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString());
    }

    private static boolean matchesAny(List<Pattern> patterns, String path) {
        for (Pattern p : patterns) {
            if (p.matcher(path).matches()) {
                return true;
            }
        }
        return false;
    }
}
