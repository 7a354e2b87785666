package io.github.odrust.maven.repair;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A git-style unified diff of one file, which {@code git apply} (and {@code patch -p1}) accept. */
public final class UnifiedPatch {
    private UnifiedPatch() {}

    /**
     * @param path the file's path relative to where the patch is applied, with {@code /}
     */
    public static String of(String path, String before, String after) {
        List<String> a = lines(before);
        List<String> b = lines(after);
        Patch<String> patch = DiffUtils.diff(a, b);
        List<String> diff = UnifiedDiffUtils.generateUnifiedDiff("a/" + path, "b/" + path, a, patch, 3);
        StringBuilder text = new StringBuilder("diff --git a/" + path + " b/" + path + "\n");
        for (String line : diff) {
            text.append(line).append('\n');
        }
        return text.toString();
    }

    /**
     * The lines of {@code text}, each with its carriage return when it has one: a CRLF file's patch
     * then carries CRLF in its context, removed and added lines (its headers end in LF), as
     * {@code git diff} writes it, and applies to the file as it is.
     */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
