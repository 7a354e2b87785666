package io.github.odrust.agent.format;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plan file (docs/protocol.md, "Plan file"): tab-separated lines, UTF-8, first line the version.
 * The plugin writes it with {@link Writer}; the agent's runner reads it with {@link #read} into an
 * instance of this class.
 */
public final class PlanFile {
    public static final int VERSION = 1;

    public String mode;
    public String events;
    public final List<String> classpath = new ArrayList<>();
    public final Map<String, String> sysprops = new LinkedHashMap<>();
    public final Map<String, String> config = new LinkedHashMap<>();
    public final List<String> candidates = new ArrayList<>();
    public final List<Segment> segments = new ArrayList<>();
    /** Frameworks Surefire would run; null when the plan has no {@code frameworks} line (= all present). */
    public Set<String> frameworks;

    /**
     * Surefire's {@code groups} and {@code excludedGroups} for discovery (JUnit 5 tag expressions,
     * JUnit 4 category classes), comma-separated as Surefire takes them; null when not set.
     */
    public String groups;

    public String excludedGroups;

    /**
     * In a shared JVM started with the shuffle agent: the shuffle options of this order (its seed,
     * ranges, log), or null.
     */
    public String shuffle;

    public static final class Segment {
        public final String framework;
        public final String className;
        public final List<String> tests = new ArrayList<>();

        public Segment(String framework, String className) {
            this.framework = framework;
            this.className = className;
        }
    }

    public static final class BadPlanException extends Exception {
        private static final long serialVersionUID = 1L;

        public BadPlanException(String message) {
            super(message);
        }
    }

    /** Writes a plan file line by line, in the order the methods are called. */
    public static final class Writer {
        private final StringBuilder text = new StringBuilder();

        public Writer(String mode, Path events) {
            line("odrust-plan", String.valueOf(VERSION));
            line("mode", mode);
            line("events", events.toAbsolutePath().toString());
        }

        /** Surefire's groups and excludedGroups (null: not set), for discovery. */
        public Writer groups(String groups, String excludedGroups) {
            if (groups != null) {
                line("groups", groups);
            }
            if (excludedGroups != null) {
                line("excluded-groups", excludedGroups);
            }
            return this;
        }

        public Writer frameworks(List<String> frameworks) {
            return line("frameworks", String.join(",", frameworks));
        }

        public Writer classpath(List<File> classpath) {
            for (File f : classpath) {
                line("classpath", f.getAbsolutePath());
            }
            return this;
        }

        public Writer systemProperties(Map<String, String> props) {
            props.forEach((k, v) -> line("sysprop", k, v));
            return this;
        }

        public Writer configurationParameters(Map<String, String> params) {
            params.forEach((k, v) -> line("config", k, v));
            return this;
        }

        /** The shuffle options of this order, for a shared JVM started with the shuffle agent. */
        public Writer shuffle(Path options) {
            return line("shuffle", options.toAbsolutePath().toString());
        }

        public Writer candidate(String className) {
            return line("candidate", className);
        }

        public Writer segment(String framework, String className, List<String> tests) {
            line("segment", framework, className);
            for (String t : tests) {
                line("test", t);
            }
            return this;
        }

        /** The plan's text so far. */
        public String text() {
            return text.toString();
        }

        public void write(Path file) throws IOException {
            Files.createDirectories(file.getParent());
            Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        }

        private Writer line(String... fields) {
            for (int i = 0; i < fields.length; i++) {
                if (i > 0) {
                    text.append('\t');
                }
                text.append(escape(fields[i]));
            }
            text.append('\n');
            return this;
        }
    }

    /** Escapes one field: {@code \\ \t \n \r}, the inverse of {@link #unescape}. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\':
                    b.append("\\\\");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                default:
                    b.append(c);
            }
        }
        return b.toString();
    }

    public static PlanFile read(Path file) throws IOException, BadPlanException {
        return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8), file.toString());
    }

    public static PlanFile parse(String text, String name) throws BadPlanException {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] lines = text.split("\n", -1);
        PlanFile p = new PlanFile();
        boolean sawHeader = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            int no = i + 1;
            if (line.trim().isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = fields(line);
            String key = f[0];
            if (!sawHeader) {
                if (!key.equals("odrust-plan") || f.length < 2) {
                    throw new BadPlanException(
                            name + ":" + no + ": first line must be 'odrust-plan<TAB>" + VERSION + "'");
                }
                if (!f[1].trim().equals(String.valueOf(VERSION))) {
                    throw new BadPlanException(name + ":" + no + ": unsupported plan version '" + f[1].trim()
                            + "' (this agent reads version " + VERSION + ")");
                }
                sawHeader = true;
                continue;
            }
            switch (key) {
                case "mode":
                    p.mode = need(f, 2, name, no).trim();
                    if (!p.mode.equals("run") && !p.mode.equals("discover")) {
                        throw new BadPlanException(
                                name + ":" + no + ": mode must be 'run' or 'discover', not '" + p.mode + "'");
                    }
                    break;
                case "events":
                    p.events = rest(f, name, no);
                    break;
                case "classpath":
                    p.classpath.add(rest(f, name, no));
                    break;
                case "sysprop":
                    need(f, 3, name, no);
                    p.sysprops.put(f[1], join(f, 2));
                    break;
                case "config":
                    need(f, 3, name, no);
                    p.config.put(f[1], join(f, 2));
                    break;
                case "frameworks": {
                    Set<String> set = new LinkedHashSet<>();
                    for (String s : rest(f, name, no).split(",")) {
                        if (!s.trim().isEmpty()) {
                            set.add(s.trim());
                        }
                    }
                    p.frameworks = set;
                    break;
                }
                case "candidate":
                    p.candidates.add(rest(f, name, no).trim());
                    break;
                case "groups":
                    p.groups = rest(f, name, no).trim();
                    break;
                case "excluded-groups":
                    p.excludedGroups = rest(f, name, no).trim();
                    break;
                case "shuffle":
                    p.shuffle = rest(f, name, no);
                    break;
                case "segment": {
                    need(f, 3, name, no);
                    String fw = f[1].trim();
                    if (!fw.equals("junit4") && !fw.equals("junit5")) {
                        throw new BadPlanException(
                                name + ":" + no + ": unknown framework '" + fw + "' (junit4 or junit5)");
                    }
                    p.segments.add(new Segment(fw, f[2].trim()));
                    break;
                }
                case "test":
                    if (p.segments.isEmpty()) {
                        throw new BadPlanException(name + ":" + no + ": 'test' line before any 'segment' line");
                    }
                    p.segments
                            .get(p.segments.size() - 1)
                            .tests
                            .add(rest(f, name, no).trim());
                    break;
                default:
                    // unknown keys are ignored so newer plugins can add lines older agents skip
                    break;
            }
        }
        if (!sawHeader) {
            throw new BadPlanException(name + ": empty plan (no 'odrust-plan' line)");
        }
        if (p.mode == null) {
            throw new BadPlanException(name + ": no 'mode' line");
        }
        if (p.events == null || p.events.isEmpty()) {
            throw new BadPlanException(name + ": no 'events' line");
        }
        return p;
    }

    private static String need(String[] f, int n, String name, int no) throws BadPlanException {
        if (f.length < n) {
            throw new BadPlanException(
                    name + ":" + no + ": '" + f[0] + "' needs " + (n - 1) + " tab-separated value(s)");
        }
        return f[1];
    }

    /** The value of a one-value line; extra (unescaped) tabs are kept as part of the value. */
    private static String rest(String[] f, String name, int no) throws BadPlanException {
        need(f, 2, name, no);
        return join(f, 1);
    }

    private static String join(String[] f, int from) {
        StringBuilder b = new StringBuilder(f[from]);
        for (int i = from + 1; i < f.length; i++) {
            b.append('\t').append(f[i]);
        }
        return b.toString();
    }

    /** Splits a line at tabs and unescapes each field: {@code \t \n \r \\}; other backslashes stay. */
    static String[] fields(String line) {
        String[] raw = line.split("\t", -1);
        for (int i = 0; i < raw.length; i++) {
            raw[i] = unescape(raw[i]);
        }
        return raw;
    }

    public static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(i + 1);
                switch (n) {
                    case 't':
                        b.append('\t');
                        i++;
                        continue;
                    case 'n':
                        b.append('\n');
                        i++;
                        continue;
                    case 'r':
                        b.append('\r');
                        i++;
                        continue;
                    case '\\':
                        b.append('\\');
                        i++;
                        continue;
                    default:
                        break;
                }
            }
            b.append(c);
        }
        return b.toString();
    }

    public boolean frameworkEnabled(String fw) {
        return frameworks == null || frameworks.contains(fw);
    }
}
