package io.github.odrust.maven.repair;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a written patch applies as written from the directory Maven ran in, and the command
 * that applies it from there.
 *
 * <p>{@link #check} copies the files the patch edits (the paths of its {@code --- a/...} headers,
 * relative to that directory) into a fresh scratch directory under {@code java.io.tmpdir} and runs
 * {@code git apply --check -v} on the patch there, with {@code GIT_CEILING_DIRECTORIES} set to the
 * scratch directory's parent: git then finds no enclosing repository (inside one, git applies
 * paths from the repository's top and silently skips the others, exiting 0 with "Skipped patch").
 * A "Skipped patch" is a failure too. When git cannot be run (not on the PATH), the patch is
 * applied in Java instead, exactly as git would without options: context and removed lines must
 * match the file byte for byte, carriage returns included, a hunk may be found a few lines away
 * from its stated line, and none is applied with less context. {@link Result#checker} says which
 * of the two ran.
 */
public final class PatchCheck {
    /** {@link Result#checker} when git checked the patch. */
    public static final String GIT = "git apply --check";

    /** {@link Result#checker} when git could not be run and the patch was applied in Java. */
    public static final String JAVA = "odrust (git not found)";

    private static final long TIMEOUT_SECONDS = 60;

    private PatchCheck() {}

    /** What a check found. */
    public static final class Result {
        /** Why the patch does not apply as written, or null when it does. */
        public final String reason;
        /** {@link #GIT} or {@link #JAVA}. */
        public final String checker;

        Result(String reason, String checker) {
            this.reason = reason;
            this.checker = checker;
        }

        public boolean ok() {
            return reason == null;
        }

        /** "git apply --check", or "git apply --check: <why it does not apply>". */
        public String describe() {
            return ok() ? checker : checker + ": " + reason;
        }

        @Override
        public String toString() {
            return (ok() ? "applies" : "does not apply: " + reason) + " (" + checker + ")";
        }
    }

    /**
     * Checks that {@code patch} applies to the files under {@code root} (the directory Maven ran
     * in, which its paths are relative to), changing nothing under {@code root}.
     */
    public static Result check(Path root, Path patch) {
        return check(root, patch, "git", Map.of());
    }

    /**
     * As {@link #check(Path, Path)}, with the files {@code asWere} names (by their path in the
     * patch) checked as those bytes instead of as they are now: the files as the patch was made
     * against them, when this run already changed them (another patch of the same file applied).
     */
    public static Result check(Path root, Path patch, Map<String, byte[]> asWere) {
        return check(root, patch, "git", asWere);
    }

    static Result check(Path root, Path patch, String git) {
        return check(root, patch, git, Map.of());
    }

    static Result check(Path root, Path patch, String git, Map<String, byte[]> asWere) {
        String text;
        List<String> files;
        try {
            text = new String(Files.readAllBytes(patch), StandardCharsets.ISO_8859_1);
            files = files(text);
        } catch (IOException e) {
            return new Result("cannot read " + patch + ": " + e.getMessage(), GIT);
        }
        Path base = root.toAbsolutePath().normalize();
        for (String f : files) {
            if (!base.resolve(f).normalize().startsWith(base)) {
                return new Result("it names " + f + ", outside " + root, GIT);
            }
        }
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "odrust-patch-check")
                    .toRealPath();
            for (String f : files) {
                Path from = base.resolve(f);
                Path to = scratch.resolve(f);
                if (asWere.containsKey(f)) {
                    Files.createDirectories(to.getParent());
                    Files.write(to, asWere.get(f));
                } else if (Files.isRegularFile(from)) {
                    Files.createDirectories(to.getParent());
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            ProcessBuilder pb = new ProcessBuilder(
                            git,
                            "apply",
                            "--check",
                            "-v",
                            patch.toAbsolutePath().toString())
                    .directory(scratch.toFile())
                    .redirectErrorStream(true);
            Map<String, String> env = pb.environment();
            env.put("GIT_CEILING_DIRECTORIES", scratch.getParent().toString());
            env.remove("GIT_DIR");
            env.remove("GIT_WORK_TREE");
            env.remove("GIT_INDEX_FILE");
            Process p;
            try {
                p = pb.start();
            } catch (IOException notFound) {
                return new Result(applyInJava(base, text, asWere), JAVA);
            }
            String out = run(p);
            if (out == null) {
                return new Result("git apply --check did not end within " + TIMEOUT_SECONDS + " s", GIT);
            }
            if (p.exitValue() != 0) {
                return new Result(gitReason(out, "git apply --check failed (exit " + p.exitValue() + ")"), GIT);
            }
            if (out.contains("Skipped patch")) {
                return new Result(gitReason(out, "git skipped it"), GIT);
            }
            return new Result(null, GIT);
        } catch (IOException e) {
            return new Result("cannot check it in a scratch directory: " + e.getMessage(), GIT);
        } finally {
            if (scratch != null) {
                deleteQuietly(scratch);
            }
        }
    }

    /**
     * The command that applies the patch from {@code root}: {@code git apply <patch>}, and when
     * {@code root} is below the top of a git work tree, {@code git apply --directory=<root's path
     * in it> <patch>} (inside a repository, git takes a patch's paths from its top; the option
     * makes them relative to {@code root} again). Arguments are quoted for a POSIX shell when they
     * need it.
     *
     * @param patch the patch's path as printed to the user (relative to {@code root}, or absolute)
     */
    public static String applyCommand(Path root, String patch) {
        return applyCommand(root, patch, "git");
    }

    static String applyCommand(Path root, String patch, String git) {
        String prefix = prefix(root, git);
        return "git apply " + (prefix.isEmpty() ? "" : shellQuoted("--directory=" + prefix) + " ") + shellQuoted(patch);
    }

    /** {@code root}'s path from the top of its git work tree, without a trailing slash; "" at the top, outside one, or without git. */
    private static String prefix(Path root, String git) {
        try {
            Process p = new ProcessBuilder(git, "-C", root.toAbsolutePath().toString(), "rev-parse", "--show-prefix")
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = run(p);
            if (out == null || p.exitValue() != 0) {
                return "";
            }
            String prefix = out.trim();
            return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        } catch (IOException e) {
            return "";
        }
    }

    /** The process's output, or null when it did not end in time (then it is killed). */
    private static String run(Process p) throws IOException {
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return null;
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    private static String gitReason(String out, String otherwise) {
        List<String> lines = new ArrayList<>();
        for (String line : out.split("\\R")) {
            boolean says = line.startsWith("error:") || line.startsWith("fatal:") || line.startsWith("Skipped patch");
            if (says && !line.endsWith("while searching for:")) {
                lines.add(line.trim());
            }
        }
        return lines.isEmpty() ? otherwise + (out.isBlank() ? "" : ": " + out.trim()) : String.join("; ", lines);
    }

    static String shellQuoted(String s) {
        if (!s.isEmpty() && s.matches("[A-Za-z0-9_./@%+=:,#-]+") && !s.startsWith("#")) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a scratch directory left in java.io.tmpdir
        }
    }

    // ---- the patch itself ----

    /** The files a patch edits: the paths of its {@code --- a/...} headers, without {@code a/}. */
    static List<String> files(String patch) {
        List<String> files = new ArrayList<>();
        for (FilePatch f : parse(patch)) {
            if (f.path != null && !files.contains(f.path)) {
                files.add(f.path);
            }
        }
        return files;
    }

    /** Applies the patch in Java to the files under {@code base}; returns why it does not apply, or null. */
    private static String applyInJava(Path base, String patch, Map<String, byte[]> asWere) {
        Map<String, String> texts = new LinkedHashMap<>();
        asWere.forEach((path, bytes) -> texts.put(path, new String(bytes, StandardCharsets.ISO_8859_1)));
        for (FilePatch f : parse(patch)) {
            if (f.path == null) {
                continue; // a new file: nothing to match
            }
            try {
                String text = texts.get(f.path);
                if (text == null) {
                    Path file = base.resolve(f.path);
                    if (!Files.isRegularFile(file)) {
                        return f.path + ": no such file in " + base;
                    }
                    text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                }
                texts.put(f.path, f.apply(text));
            } catch (IOException e) {
                return "cannot read " + f.path + ": " + e.getMessage();
            } catch (DoesNotApply e) {
                return f.path + ": patch does not apply: " + e.getMessage();
            }
        }
        return null;
    }

    /**
     * {@code text} with the parts of {@code patch} that edit {@code path} applied, as git applies
     * them (see the class comment); both are read as ISO-8859-1 (one char per byte).
     *
     * @throws IllegalArgumentException when it does not apply, saying why
     */
    static String applyText(String path, String text, String patch) {
        String result = text;
        for (FilePatch f : parse(patch)) {
            if (path.equals(f.path)) {
                try {
                    result = f.apply(result);
                } catch (DoesNotApply e) {
                    throw new IllegalArgumentException(path + ": patch does not apply: " + e.getMessage(), e);
                }
            }
        }
        return result;
    }

    private static final class DoesNotApply extends Exception {
        DoesNotApply(String message) {
            super(message);
        }
    }

    private static final Pattern HUNK = Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@.*");

    /** One file's part of a patch. */
    private static final class FilePatch {
        /** The path of its {@code ---} header without {@code a/}, or null for {@code /dev/null}. */
        String path;

        final List<Hunk> hunks = new ArrayList<>();

        String apply(String text) throws DoesNotApply {
            List<String> lines = UnifiedPatch.lines(text);
            List<String> out = new ArrayList<>();
            int next = 0;
            for (Hunk h : hunks) {
                int at = h.find(lines, next);
                out.addAll(lines.subList(next, at));
                out.addAll(h.newLines);
                next = at + h.oldLines.size();
            }
            out.addAll(lines.subList(next, lines.size()));
            return String.join("", out);
        }
    }

    /** One hunk: its old lines (context and removed) and new lines (context and added), each with its line ending. */
    private static final class Hunk {
        String header;
        int oldStart;
        int oldCount;
        int newCount;
        final List<String> oldLines = new ArrayList<>();
        final List<String> newLines = new ArrayList<>();
        int leading;
        int trailing;
        boolean changed;

        /** Where the hunk's old lines are in {@code lines}, at or after {@code from}, nearest its stated line. */
        int find(List<String> lines, int from) throws DoesNotApply {
            // as git: a hunk from the first line must match there, one without trailing context at the end
            boolean matchBeginning = oldStart <= 1;
            boolean matchEnd = trailing == 0;
            int stated = oldCount == 0 ? oldStart : oldStart - 1;
            int last = lines.size() - oldLines.size();
            for (int d = 0; stated - d >= from || stated + d <= last; d++) {
                for (int at : d == 0 ? new int[] {stated} : new int[] {stated - d, stated + d}) {
                    if (at >= from
                            && at <= last
                            && (!matchBeginning || at == 0)
                            && (!matchEnd || at == last)
                            && lines.subList(at, at + oldLines.size()).equals(oldLines)) {
                        return at;
                    }
                }
            }
            throw new DoesNotApply(header + " " + mismatch(lines, from, Math.max(from, Math.min(stated, last))));
        }

        private String mismatch(List<String> lines, int from, int at) {
            for (int elsewhere = from; elsewhere + oldLines.size() <= lines.size(); elsewhere++) {
                if (lines.subList(elsewhere, elsewhere + oldLines.size()).equals(oldLines)) {
                    return "matches at line " + (elsewhere + 1) + " only, but a hunk "
                            + (oldStart <= 1 ? "from the first line must match at the file's start" : "")
                            + (oldStart <= 1 && trailing == 0 ? " and one " : "")
                            + (trailing == 0 ? "without trailing context must match at its end" : "");
                }
            }
            for (int i = 0; i < oldLines.size(); i++) {
                String has = at + i >= 0 && at + i < lines.size() ? lines.get(at + i) : null;
                if (!oldLines.get(i).equals(has)) {
                    return "does not match at line " + (at + i + 1) + ": the patch expects " + shown(oldLines.get(i))
                            + ", the file has " + (has == null ? "no such line" : shown(has));
                }
            }
            return "does not match at line " + (at + 1);
        }
    }

    private static String shown(String line) {
        return "\""
                + line.replace("\\", "\\\\")
                        .replace("\r", "\\r")
                        .replace("\n", "\\n")
                        .replace("\t", "\\t")
                + "\"";
    }

    /** Parses the file parts of a unified diff: headers, hunks, lines and no-newline markers. */
    private static List<FilePatch> parse(String patch) {
        List<String> lines = UnifiedPatch.lines(patch);
        List<FilePatch> files = new ArrayList<>();
        FilePatch file = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("--- ")
                    && i + 1 < lines.size()
                    && lines.get(i + 1).startsWith("+++ ")) {
                file = new FilePatch();
                file.path = headerPath(line.substring(4));
                files.add(file);
                i++;
                continue;
            }
            Matcher m = HUNK.matcher(strip(line));
            if (file == null || !m.matches()) {
                continue;
            }
            Hunk h = new Hunk();
            h.header = strip(line).replaceFirst("(@@ [^@]* @@).*", "$1");
            h.oldStart = Integer.parseInt(m.group(1));
            h.oldCount = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            h.newCount = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
            int oldLeft = h.oldCount;
            int newLeft = h.newCount;
            char previous = 0;
            while (i + 1 < lines.size()) {
                String l = lines.get(i + 1);
                if (l.startsWith("\\")) {
                    // the line before has no line ending (its \r, if any, is content)
                    if (previous == ' ' || previous == '-') {
                        dropNewline(h.oldLines);
                    }
                    if (previous == ' ' || previous == '+') {
                        dropNewline(h.newLines);
                    }
                    i++;
                    continue;
                }
                if (oldLeft == 0 && newLeft == 0) {
                    break;
                }
                // an empty line is an empty context line whose space was lost (git accepts it)
                boolean bare = l.equals("\n") || l.equals("\r\n");
                char kind = bare ? ' ' : l.charAt(0);
                String content = bare ? l : l.substring(1);
                if (kind == ' ' && oldLeft > 0 && newLeft > 0) {
                    h.oldLines.add(content);
                    h.newLines.add(content);
                    oldLeft--;
                    newLeft--;
                    if (h.changed) {
                        h.trailing++;
                    } else {
                        h.leading++;
                    }
                } else if (kind == '-' && oldLeft > 0) {
                    h.oldLines.add(content);
                    oldLeft--;
                    h.changed = true;
                    h.trailing = 0;
                } else if (kind == '+' && newLeft > 0) {
                    h.newLines.add(content);
                    newLeft--;
                    h.changed = true;
                    h.trailing = 0;
                } else {
                    break; // a truncated hunk: what it has is checked
                }
                previous = kind;
                i++;
            }
            file.hunks.add(h);
        }
        return files;
    }

    private static void dropNewline(List<String> lines) {
        int last = lines.size() - 1;
        if (last >= 0 && lines.get(last).endsWith("\n")) {
            lines.set(last, lines.get(last).substring(0, lines.get(last).length() - 1));
        }
    }

    /** A header's path: {@code a/x/Y.java} as {@code x/Y.java}, {@code /dev/null} as null; a tab and what follows ignored. */
    private static String headerPath(String header) {
        String p = strip(header);
        int tab = p.indexOf('\t');
        if (tab >= 0) {
            p = p.substring(0, tab);
        }
        if (p.equals("/dev/null")) {
            return null;
        }
        return p.startsWith("a/") || p.startsWith("b/") ? p.substring(2) : p;
    }

    /** The line without its line ending. */
    private static String strip(String line) {
        String s = line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }
}
