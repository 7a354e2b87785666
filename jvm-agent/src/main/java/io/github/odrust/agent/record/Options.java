package io.github.odrust.agent.record;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The recording agent's options file ({@code -javaagent:<agent-jar>=<options-file>}): UTF-8, one
 * setting per line, {@code #} comments, blank lines ignored (docs/protocol.md, "Events").
 *
 * <pre>
 * root /abs/module/target/classes       # repeated: project classes (a class directory or a jar)
 * include com.acme.lib.                 # repeated: class-name prefix instrumented wherever it comes from
 * exclude com.acme.generated.           # repeated: class-name prefix never instrumented
 * constant-type org.slf4j.Logger        # repeated: a final static of this declared type is a constant
 * ignore-field com.acme.Metrics#        # repeated: field-name prefix left out of the events
 * </pre>
 *
 * <p>{@code mode diagnose} switches the agent to heap-state capture and restore (docs/diagnose.md):
 * nothing is instrumented; {@code root}, {@code include} and {@code exclude} choose the captured
 * classes, and these settings say what to do:
 *
 * <pre>
 * mode diagnose
 * test com.acme.VTest#v                 # act right before this test starts
 * occurrence 2                          # its 2nd start (default 1)
 * capture /abs/capture.xml              # write the static state there
 * capture-limit 200000                  # node cap of the capture
 * restore-from /abs/passing.xml         # first set fields back to this capture's values
 * restore-field com.acme.Prices.RATES   # repeated: which fields
 * initialize com.acme.Prices           # repeated: initialize this class first (its state right after
 *                                       # initialization, for a class the test would initialize itself)
 * result /abs/result.json               # what was done (JSON)
 * </pre>
 *
 * <p>{@code mode shuffle} switches the agent to shuffling JDK results ({@code odrust:detect-id},
 * docs/id-tests.md); {@code root} and {@code include} say which callers count:
 *
 * <pre>
 * mode shuffle
 * seed 42                               # absent: count the calls, shuffle none (a clean run)
 * only 3-7                              # repeated: shuffle only these counted calls (default all)
 * filter any                            # every non-JDK caller counts (default: project)
 * track-allocations true                # remember where HashMaps and HashSets of the module are made
 * log /abs/shuffle.jsonl                # the counted calls (within 'only') and the final count
 * log-limit 64                          # at most this many calls in the log
 * </pre>
 */
public final class Options {
    /** Absolute, normalised class directories and jars. */
    final List<Path> roots = new ArrayList<>();
    /** Dotted class-name prefixes. */
    final List<String> includes = new ArrayList<>();

    final List<String> excludes = new ArrayList<>();
    final Set<String> constantTypes = new HashSet<>();
    final List<String> ignoredFields = new ArrayList<>();
    /** {@code record} (default) or {@code diagnose}. */
    String mode = "record";

    String test;
    int occurrence = 1;
    Path capture;
    int captureLimit = 200_000;
    Path restoreFrom;
    final List<String> restoreFields = new ArrayList<>();
    Path result;
    final List<String> initialize = new ArrayList<>();
    Long seed;
    /** Inclusive ranges of counted calls, flattened. */
    final List<Long> only = new ArrayList<>();

    boolean anyCaller;
    boolean trackAllocations;
    Path log;
    int logLimit = 64;

    static final class BadOptionsException extends Exception {
        private static final long serialVersionUID = 1L;

        BadOptionsException(String message) {
            super(message);
        }
    }

    private static final Set<String> KNOWN = new HashSet<>(java.util.Arrays.asList(
            "root",
            "include",
            "exclude",
            "constant-type",
            "ignore-field",
            "mode",
            "test",
            "occurrence",
            "capture",
            "capture-limit",
            "restore-from",
            "restore-field",
            "result",
            "initialize",
            "seed",
            "only",
            "filter",
            "track-allocations",
            "log",
            "log-limit"));
    private static final String KEYS = "root, include, exclude, constant-type, ignore-field, mode, test, "
            + "occurrence, capture, capture-limit, restore-from, restore-field, initialize, result, seed, only, "
            + "filter, track-allocations, log or log-limit";

    /** Reads the options named by the {@code -javaagent} argument. */
    static Options read(String agentArgs) throws BadOptionsException {
        if (agentArgs == null || agentArgs.trim().isEmpty()) {
            throw new BadOptionsException("the recording agent needs an options file: start the JVM with "
                    + "-javaagent:<odrust-jvm-agent.jar>=<options-file>");
        }
        Path file = Paths.get(agentArgs.trim());
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new BadOptionsException("cannot read the options file " + file + " (" + e
                    + "): pass an existing file as -javaagent:<odrust-jvm-agent.jar>=<options-file>");
        }
        return parse(text, file.toString());
    }

    /** {@code 5} or {@code 3-7}: an inclusive range of counted calls, numbered from 1. */
    private static List<Long> range(String value, String where) throws BadOptionsException {
        String[] parts = value.split("-", -1);
        try {
            long from = Long.parseLong(parts[0].trim());
            long to = parts.length == 2 ? Long.parseLong(parts[1].trim()) : from;
            if (parts.length <= 2 && from >= 1 && to >= from) {
                return java.util.Arrays.asList(from, to);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new BadOptionsException(where + ": only takes a call number or an inclusive range of them, numbered"
                + " from 1, e.g. 'only 5' or 'only 3-7'");
    }

    static Options parse(String text, String name) throws BadOptionsException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        Options o = new Options();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = "options file " + name + " line " + (i + 1) + " (\"" + line + "\")";
            int sp = indexOfSpace(line);
            String key = sp < 0 ? line : line.substring(0, sp);
            String value = sp < 0 ? "" : line.substring(sp + 1).trim();
            boolean known = KNOWN.contains(key);
            if (!known) {
                throw new BadOptionsException(
                        where + ": unknown setting '" + key + "'; write one of " + KEYS + ", a space, then its value");
            }
            if (value.isEmpty()) {
                throw new BadOptionsException(where + ": '" + key + "' needs a value, e.g. "
                        + (key.equals("root") ? "'root /abs/path/target/classes'" : "'" + key + " com.acme.'"));
            }
            switch (key) {
                case "root":
                    Path p;
                    try {
                        p = Paths.get(value);
                    } catch (RuntimeException e) {
                        throw new BadOptionsException(where + ": not a valid path (" + e.getMessage()
                                + "); give the absolute path of a class directory or jar");
                    }
                    if (!p.isAbsolute()) {
                        throw new BadOptionsException(
                                where + ": root must be an absolute path of a class directory or jar");
                    }
                    o.roots.add(p.normalize());
                    try {
                        Path real = p.toRealPath();
                        if (!real.equals(p.normalize())) {
                            o.roots.add(real); // code sources may name the target of a symbolic link
                        }
                    } catch (IOException | RuntimeException missing) {
                        // a root that does not exist (yet) matches by its name only
                    }
                    break;
                case "include":
                    o.includes.add(prefix(value, where));
                    break;
                case "exclude":
                    o.excludes.add(prefix(value, where));
                    break;
                case "constant-type":
                    o.constantTypes.add(prefix(value, where));
                    break;
                case "mode":
                    if (!value.equals("record") && !value.equals("diagnose") && !value.equals("shuffle")) {
                        throw new BadOptionsException(where + ": mode is 'record', 'diagnose' or 'shuffle'");
                    }
                    o.mode = value;
                    break;
                case "test":
                    o.test = value;
                    break;
                case "seed":
                    try {
                        o.seed = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        throw new BadOptionsException(where + ": seed must be a whole number, e.g. 'seed 42'");
                    }
                    break;
                case "only":
                    o.only.addAll(range(value, where));
                    break;
                case "filter":
                    if (!value.equals("any") && !value.equals("project")) {
                        throw new BadOptionsException(where + ": filter is 'project' (calls from the module's own"
                                + " code) or 'any' (calls from any code outside the JDK)");
                    }
                    o.anyCaller = value.equals("any");
                    break;
                case "track-allocations":
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new BadOptionsException(where + ": track-allocations is 'true' or 'false'");
                    }
                    o.trackAllocations = value.equals("true");
                    break;
                case "log":
                    o.log = absolute(value, where);
                    break;
                case "occurrence":
                case "capture-limit":
                case "log-limit":
                    int n;
                    try {
                        n = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        n = 0;
                    }
                    if (n < 1) {
                        throw new BadOptionsException(where + ": " + key + " must be a whole number of at least 1");
                    }
                    if (key.equals("occurrence")) {
                        o.occurrence = n;
                    } else if (key.equals("log-limit")) {
                        o.logLimit = n;
                    } else {
                        o.captureLimit = n;
                    }
                    break;
                case "capture":
                    o.capture = absolute(value, where);
                    break;
                case "restore-from":
                    o.restoreFrom = absolute(value, where);
                    break;
                case "restore-field":
                    o.restoreFields.add(value);
                    break;
                case "initialize":
                    o.initialize.add(prefix(value, where));
                    break;
                case "result":
                    o.result = absolute(value, where);
                    break;
                default:
                    o.ignoredFields.add(value);
            }
        }
        if (o.mode.equals("diagnose") && o.test == null) {
            throw new BadOptionsException("options file " + name + ": mode diagnose needs 'test <test id>'");
        }
        if (o.mode.equals("diagnose") && o.restoreFrom == null && !o.restoreFields.isEmpty()) {
            throw new BadOptionsException(
                    "options file " + name + ": restore-field needs 'restore-from <capture.xml>'");
        }
        return o;
    }

    private static Path absolute(String value, String where) throws BadOptionsException {
        try {
            Path p = Paths.get(value);
            if (p.isAbsolute()) {
                return p.normalize();
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new BadOptionsException(where + ": give an absolute file path");
    }

    private static int indexOfSpace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static String prefix(String value, String where) throws BadOptionsException {
        if (value.indexOf('/') >= 0 || indexOfSpace(value) >= 0) {
            throw new BadOptionsException(
                    where + ": give a dotted class name or package prefix (com.acme.lib.), " + "not a path");
        }
        return value;
    }

    /** Class names the agent never instruments (internal names). */
    private static final String[] NEVER = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/",
        "org/junit/", "junit/", "org/hamcrest/", "org/opentest4j/", "org/apiguardian/",
        "io/github/odrust/agent/record/", "io/github/odrust/agent/shaded/",
    };

    static boolean never(String internalName) {
        for (String p : NEVER) {
            if (internalName.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean excluded(String dotted) {
        for (String p : excludes) {
            if (dotted.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean included(String dotted) {
        for (String p : includes) {
            if (dotted.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    boolean ignoredField(String display) {
        for (String p : ignoredFields) {
            if (display.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Is this code-source location (a class directory or a jar) one of the roots, or inside one? */
    boolean inRoot(URL location) {
        Path p = path(location);
        if (p == null) {
            return false;
        }
        if (under(p)) {
            return true;
        }
        try {
            Path real = p.toRealPath();
            return !real.equals(p) && under(real);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private boolean under(Path p) {
        for (Path r : roots) {
            if (p.startsWith(r)) {
                return true;
            }
        }
        return false;
    }

    /** The absolute normalised path of a {@code file:} URL, or null. */
    static Path path(URL location) {
        if (location == null || !"file".equalsIgnoreCase(location.getProtocol())) {
            return null;
        }
        try {
            return Paths.get(new URI(location.toString().replace(" ", "%20")))
                    .toAbsolutePath()
                    .normalize();
        } catch (Exception e) {
            try {
                return Paths.get(location.getPath()).toAbsolutePath().normalize();
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    List<Path> roots() {
        return Collections.unmodifiableList(roots);
    }
}
