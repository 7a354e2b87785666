package io.github.odrust.agent.format;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The agent's options file ({@code -javaagent:<agent-jar>=<options-file>}): UTF-8, one setting per
 * line, {@code #} comments, blank lines ignored (docs/protocol.md, "Events"). The plugin writes it
 * with {@link Writer}; the agent reads it with {@link #read} (its recording mode through the
 * subclass {@code io.github.odrust.agent.record.Options}).
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
 * point instance                        # no earlier than: class (default), instance or test
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
 * only-call 2 HashSet.iterator at a.B.m:12   # or: shuffle only the 2nd counted call of this site
 * filter any                            # every non-JDK caller counts (default: project)
 * track-allocations true                # remember where HashMaps and HashSets of the module are made
 * log /abs/shuffle.jsonl                # the counted calls (within 'only') and the final count
 * log-limit 64                          # at most this many calls in the log
 * runtime-cache /abs/dir                # keep the shuffling runtime's jar here for the next JVMs
 * </pre>
 *
 * <p>{@code mode audit} ({@code odrust:audit}, docs/audit.md) takes a capture of the static state at
 * every point of the run: before each segment (a block of one class's tests), before each test of
 * the classes named by {@code capture-tests}, and once more when the run ends; {@code root},
 * {@code include} and {@code exclude} choose the captured classes as in diagnose mode:
 *
 * <pre>
 * mode audit
 * captures /abs/dir                     # point-N.xml and points.jsonl (one line per point) there
 * capture-tests com.acme.FooTest        # repeated: also capture before each test of this class
 * initialize-at 3 com.acme.Prices       # repeated: initialize this class right before segment 3
 *                                       # (from 0) is captured
 * trace-only true                       # write points.jsonl (classes initialized since the
 *                                       # previous point) but no capture
 * capture-limit 200000                  # node cap of each capture
 * </pre>
 */
public class AgentOptions {
    /** Absolute, normalised class directories and jars. */
    public final List<Path> roots = new ArrayList<>();
    /** Dotted class-name prefixes. */
    public final List<String> includes = new ArrayList<>();

    public final List<String> excludes = new ArrayList<>();
    public final Set<String> constantTypes = new HashSet<>();
    public final List<String> ignoredFields = new ArrayList<>();
    /** {@code record} (default), {@code diagnose} or {@code shuffle}. */
    public String mode = "record";

    public String test;
    public int occurrence = 1;
    public Path capture;
    public int captureLimit = 200_000;
    public Path restoreFrom;
    public final List<String> restoreFields = new ArrayList<>();
    public Path result;
    public final List<String> initialize = new ArrayList<>();
    /** The earliest point a diagnose experiment acts at: {@code class}, {@code instance} or {@code test}. */
    public String point = "class";

    public Long seed;
    /** Inclusive ranges of counted calls, flattened. */
    public final List<Long> only = new ArrayList<>();

    /**
     * Shuffle mode, {@code only-call N SITE}: shuffle only the N-th counted call made at SITE
     * ({@code API at class.method:line}), whatever its number; null: {@link #only} decides.
     */
    public String onlyCall;

    public boolean anyCaller;
    /**
     * Shuffle mode: every counted call gets the permutation call {@code consistentCall} gets
     * ({@code consistent-call N}); 0: each call its own.
     */
    public long consistentCall;

    public boolean trackAllocations;
    public Path log;
    public int logLimit = 64;
    /**
     * Shuffle mode: a directory where the shuffling runtime's jar is kept for the JVMs after this
     * one ({@code runtime-cache}); null: a temporary jar per JVM.
     */
    public Path runtimeCache;

    /** Audit mode: where the captures and their index go. */
    public Path captures;
    /** Audit mode: classes whose every test is captured before it starts. */
    public final List<String> captureTests = new ArrayList<>();
    /** Audit mode: {@code segment index -> class}, flattened as "index class". */
    public final List<String> initializeAt = new ArrayList<>();
    /** Audit mode: no captures, only the classes initialized between points. */
    public boolean traceOnly;

    public static final class BadOptionsException extends Exception {
        private static final long serialVersionUID = 1L;

        public BadOptionsException(String message) {
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
            "point",
            "seed",
            "only",
            "only-call",
            "filter",
            "consistent-call",
            "track-allocations",
            "log",
            "log-limit",
            "runtime-cache",
            "captures",
            "capture-tests",
            "initialize-at",
            "trace-only"));
    private static final String KEYS = "root, include, exclude, constant-type, ignore-field, mode, test, "
            + "occurrence, capture, capture-limit, restore-from, restore-field, initialize, point, result, seed, only, "
            + "only-call, filter, consistent-call, track-allocations, log, log-limit, runtime-cache, captures, capture-tests, initialize-at or trace-only";

    protected AgentOptions() {}

    /** Reads the options named by the {@code -javaagent} argument. */
    public static AgentOptions read(String agentArgs) throws BadOptionsException {
        return read(new AgentOptions(), agentArgs);
    }

    public static AgentOptions parse(String text, String name) throws BadOptionsException {
        return parse(new AgentOptions(), text, name);
    }

    /** Reads the options named by the {@code -javaagent} argument into {@code into} (a subclass). */
    protected static <T extends AgentOptions> T read(T into, String agentArgs) throws BadOptionsException {
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
        return parse(into, text, file.toString());
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

    /** {@code 2 HashSet.iterator at a.B.m:12}: a call's number at its site, from 1, then the site. */
    private static String onlyCall(String value, String where) throws BadOptionsException {
        int space = value.indexOf(' ');
        try {
            if (space > 0 && Long.parseLong(value.substring(0, space)) >= 1 && value.indexOf(" at ", space) > space) {
                return value;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new BadOptionsException(where + ": only-call takes a call's number at its site, from 1, then the site,"
                + " e.g. 'only-call 2 HashSet.iterator at com.a.Foo.names:12'");
    }

    /** Parses {@code text} into {@code into} (a subclass); {@code name} names the file in messages. */
    protected static <T extends AgentOptions> T parse(T into, String text, String name) throws BadOptionsException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        T o = into;
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
                    if (!value.equals("record")
                            && !value.equals("diagnose")
                            && !value.equals("shuffle")
                            && !value.equals("audit")) {
                        throw new BadOptionsException(where + ": mode is 'record', 'diagnose', 'shuffle' or 'audit'");
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
                case "only-call":
                    o.onlyCall = onlyCall(value, where);
                    break;
                case "filter":
                    if (!value.equals("any") && !value.equals("project")) {
                        throw new BadOptionsException(where + ": filter is 'project' (calls from the module's own"
                                + " code) or 'any' (calls from any code outside the JDK)");
                    }
                    o.anyCaller = value.equals("any");
                    break;
                case "consistent-call":
                    try {
                        o.consistentCall = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        o.consistentCall = -1;
                    }
                    if (o.consistentCall < 1) {
                        throw new BadOptionsException(where + ": consistent-call is a counted call's number, from 1"
                                + " (every call gets that call's permutation), e.g. 'consistent-call 5'");
                    }
                    break;
                case "track-allocations":
                case "trace-only":
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new BadOptionsException(where + ": " + key + " is 'true' or 'false'");
                    }
                    if (key.equals("trace-only")) {
                        o.traceOnly = value.equals("true");
                    } else {
                        o.trackAllocations = value.equals("true");
                    }
                    break;
                case "captures":
                    o.captures = absolute(value, where);
                    break;
                case "capture-tests":
                    o.captureTests.add(prefix(value, where));
                    break;
                case "initialize-at":
                    String[] parts = value.split("\\s+");
                    boolean number = parts.length == 2 && parts[0].matches("[0-9]{1,9}");
                    if (!number) {
                        throw new BadOptionsException(where + ": initialize-at takes a segment index (from 0) and"
                                + " a class name, e.g. 'initialize-at 3 com.acme.Prices'");
                    }
                    o.initializeAt.add(parts[0] + " " + prefix(parts[1], where));
                    break;
                case "log":
                    o.log = absolute(value, where);
                    break;
                case "runtime-cache":
                    o.runtimeCache = absolute(value, where);
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
                case "point":
                    if (!value.equals("class") && !value.equals("instance") && !value.equals("test")) {
                        throw new BadOptionsException(where + ": point is 'class', 'instance' or 'test'");
                    }
                    o.point = value;
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
        if (o.mode.equals("audit") && o.captures == null) {
            throw new BadOptionsException("options file " + name + ": mode audit needs 'captures <directory>'");
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

    /** Writes an options file line by line, in the order the methods are called. */
    public static final class Writer {
        private final StringBuilder text = new StringBuilder();

        /** {@code # text}. */
        public Writer comment(String text) {
            return line("#", text);
        }

        /** {@code record} (the default when there is no mode line), {@code diagnose}, {@code shuffle} or {@code audit}. */
        public Writer mode(String mode) {
            return line("mode", mode);
        }

        /** A class directory or jar of the project. */
        public Writer root(File entry) {
            return line("root", entry.getAbsolutePath());
        }

        public Writer include(String prefix) {
            return line("include", prefix);
        }

        public Writer constantType(String type) {
            return line("constant-type", type);
        }

        public Writer test(String id) {
            return line("test", id);
        }

        public Writer occurrence(int n) {
            return line("occurrence", String.valueOf(n));
        }

        public Writer result(Path file) {
            return line("result", file.toAbsolutePath().toString());
        }

        public Writer capture(Path file) {
            return line("capture", file.toAbsolutePath().toString());
        }

        public Writer captureLimit(int nodes) {
            return line("capture-limit", String.valueOf(nodes));
        }

        public Writer initialize(String className) {
            return line("initialize", className);
        }

        /** {@code class}, {@code instance} or {@code test}: the earliest point to act at. */
        public Writer point(String point) {
            return line("point", point);
        }

        public Writer restoreFrom(String capture) {
            return line("restore-from", capture);
        }

        public Writer restoreField(String field) {
            return line("restore-field", field);
        }

        /** {@code project} (the default) or {@code any}. */
        public Writer filter(String filter) {
            return line("filter", filter);
        }

        public Writer seed(long seed) {
            return line("seed", String.valueOf(seed));
        }

        /** {@code only 5} or {@code only 3-7}: an inclusive range of counted calls. */
        public Writer only(long from, long to) {
            return line("only", from == to ? String.valueOf(from) : from + "-" + to);
        }

        /** {@code only-call 2 HashSet.iterator at a.B.m:12}: only the {@code nth} counted call of that site. */
        public Writer onlyCall(long nth, String site) {
            return line("only-call", nth + " " + site);
        }

        /** Every counted call gets the permutation of call {@code call}. */
        public Writer consistentCall(long call) {
            return line("consistent-call", String.valueOf(call));
        }

        public Writer trackAllocations(boolean track) {
            return line("track-allocations", String.valueOf(track));
        }

        public Writer log(Path file) {
            return line("log", file.toAbsolutePath().toString());
        }

        /** Shuffle mode: where the shuffling runtime's jar is kept between JVMs. */
        public Writer runtimeCache(Path dir) {
            return line("runtime-cache", dir.toAbsolutePath().toString());
        }

        /** Audit mode: the directory of the captures and {@code points.jsonl}. */
        public Writer captures(Path dir) {
            return line("captures", dir.toAbsolutePath().toString());
        }

        /** Audit mode: also capture before each test of this class. */
        public Writer captureTests(String className) {
            return line("capture-tests", className);
        }

        /** Audit mode: initialize {@code className} right before segment {@code segment} is captured. */
        public Writer initializeAt(int segment, String className) {
            return line("initialize-at", segment + " " + className);
        }

        public Writer traceOnly(boolean only) {
            return line("trace-only", String.valueOf(only));
        }

        /** The file's text so far. */
        public String text() {
            return text.toString();
        }

        public void write(Path file) throws IOException {
            Files.createDirectories(file.getParent());
            Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        }

        private Writer line(String key, String value) {
            text.append(key).append(' ').append(value).append('\n');
            return this;
        }
    }
}
