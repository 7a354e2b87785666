package io.github.odrust.maven.repair;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Chunk;
import com.github.difflib.patch.InsertDelta;
import java.util.ArrayList;
import java.util.List;

/**
 * A git-style unified diff of one file, which {@code git apply} (and {@code patch -p1}) accept and
 * which gives back {@code after} byte for byte: every line of the diff keeps its own line ending
 * (a CRLF line carries its {@code \r}, an LF line does not, in the same file), and a last line
 * without a line ending is followed by {@code \ No newline at end of file}, as {@code git diff}
 * writes it. Only the headers end in a plain LF.
 */
public final class UnifiedPatch {
    /** Lines of context around each change, as {@code git diff}. */
    private static final int CONTEXT = 3;

    static final String NO_NEWLINE = "\\ No newline at end of file";

    private UnifiedPatch() {}

    /**
     * @param path the file's path relative to where the patch is applied, with {@code /}
     */
    public static String of(String path, String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<AbstractDelta<String>> deltas = DiffUtils.diff(a, b).getDeltas();
        StringBuilder text = new StringBuilder();
        text.append("diff --git a/").append(path).append(" b/").append(path).append('\n');
        text.append("--- a/").append(path).append('\n');
        text.append("+++ b/").append(path).append('\n');
        int i = 0;
        while (i < deltas.size()) {
            // the deltas whose context lines touch or overlap make one hunk
            int j = i;
            while (j + 1 < deltas.size() && start(deltas.get(j + 1)) - end(deltas.get(j)) <= 2 * CONTEXT) {
                j++;
            }
            hunk(text, a, b, deltas.subList(i, j + 1));
            i = j + 1;
        }
        return text.toString();
    }

    /**
     * {@code before} with the changes of every text of {@code afters} (each {@code before} with some
     * lines changed) made at once, each line keeping its ending; null when two of them change the
     * same or neighbouring lines differently (a change both make, such as one import added by two,
     * is made once).
     */
    public static String merge(String before, List<String> afters) {
        List<String> a = lines(before);
        List<AbstractDelta<String>> all = new ArrayList<>();
        for (String after : afters) {
            for (AbstractDelta<String> d : DiffUtils.diff(a, lines(after)).getDeltas()) {
                boolean same = all.stream()
                        .anyMatch(o -> start(o) == start(d)
                                && o.getSource().getLines().equals(d.getSource().getLines())
                                && o.getTarget().getLines().equals(d.getTarget().getLines()));
                if (!same) {
                    all.add(d);
                }
            }
        }
        all.sort((x, y) -> Integer.compare(start(x), start(y)));
        all = coalesceInsertions(all);
        for (int i = 0; i + 1 < all.size(); i++) {
            if (start(all.get(i + 1)) <= end(all.get(i))) {
                return null;
            }
        }
        StringBuilder text = new StringBuilder();
        int at = 0;
        for (AbstractDelta<String> d : all) {
            for (; at < start(d); at++) {
                text.append(a.get(at));
            }
            d.getTarget().getLines().forEach(text::append);
            at = end(d);
        }
        for (; at < a.size(); at++) {
            text.append(a.get(at));
        }
        return text.toString();
    }

    private static void hunk(StringBuilder text, List<String> a, List<String> b, List<AbstractDelta<String>> deltas) {
        AbstractDelta<String> first = deltas.get(0);
        AbstractDelta<String> last = deltas.get(deltas.size() - 1);
        int oldStart = Math.max(0, start(first) - CONTEXT);
        int oldEnd = Math.min(a.size(), end(last) + CONTEXT);
        int newStart = oldStart + first.getTarget().getPosition() - start(first);
        int newEnd = oldEnd + last.getTarget().getPosition() + last.getTarget().size() - end(last);
        text.append("@@ -")
                .append(range(oldStart, oldEnd - oldStart))
                .append(" +")
                .append(range(newStart, newEnd - newStart))
                .append(" @@\n");
        int at = oldStart;
        for (AbstractDelta<String> d : deltas) {
            for (; at < start(d); at++) {
                line(text, ' ', a.get(at));
            }
            d.getSource().getLines().forEach(l -> line(text, '-', l));
            d.getTarget().getLines().forEach(l -> line(text, '+', l));
            at = end(d);
        }
        for (; at < oldEnd; at++) {
            line(text, ' ', a.get(at));
        }
    }

    /** {@code start,count} as git writes it: {@code ,1} left out, an empty range named by the line before it. */
    private static String range(int start, int count) {
        if (count == 0) {
            return start + ",0";
        }
        return count == 1 ? String.valueOf(start + 1) : (start + 1) + "," + count;
    }

    private static void line(StringBuilder text, char prefix, String line) {
        text.append(prefix).append(line);
        if (!line.endsWith("\n")) {
            text.append('\n').append(NO_NEWLINE).append('\n');
        }
    }

    /**
     * {@code deltas} (sorted by where they start) with the pure insertions at one place made one:
     * two patches that each add an import before the same line (a LinkedHashMap's and a
     * LinkedHashSet's) add both there, the imports in sorted order when every line added there is
     * one (as the file's sorted imports want them), else in the patches' order.
     */
    private static List<AbstractDelta<String>> coalesceInsertions(List<AbstractDelta<String>> deltas) {
        List<AbstractDelta<String>> out = new ArrayList<>();
        for (AbstractDelta<String> d : deltas) {
            AbstractDelta<String> last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last == null
                    || !last.getSource().getLines().isEmpty()
                    || !d.getSource().getLines().isEmpty()
                    || start(last) != start(d)) {
                out.add(d);
                continue;
            }
            List<String> lines = new ArrayList<>(last.getTarget().getLines());
            for (String l : d.getTarget().getLines()) {
                if (!lines.contains(l)) {
                    lines.add(l);
                }
            }
            if (lines.stream().allMatch(l -> l.stripLeading().startsWith("import "))) {
                lines.sort(java.util.Comparator.comparing(String::strip));
            }
            out.set(
                    out.size() - 1,
                    new InsertDelta<>(
                            new Chunk<>(start(last), new ArrayList<>()),
                            new Chunk<>(last.getTarget().getPosition(), lines)));
        }
        return out;
    }

    private static int start(AbstractDelta<String> d) {
        return d.getSource().getPosition();
    }

    private static int end(AbstractDelta<String> d) {
        return d.getSource().getPosition() + d.getSource().size();
    }

    /**
     * The lines of {@code text}, each with its own line ending ({@code \n}, or {@code \r\n}, whose
     * {@code \r} git takes for part of the line), the last without one when the text does not end
     * in a newline. A line that only changed its ending is a changed line.
     */
    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int from = 0;
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
            lines.add(text.substring(from, nl + 1));
            from = nl + 1;
        }
        if (from < text.length()) {
            lines.add(text.substring(from));
        }
        return lines;
    }
}
