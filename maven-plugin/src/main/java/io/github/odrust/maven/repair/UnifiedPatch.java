package io.github.odrust.maven.repair;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A git-style unified diff of one file, which {@code git apply} (and {@code patch -p1}) accept. */
final class UnifiedPatch {
    private UnifiedPatch() {}

    /**
     * @param path the file's path relative to where the patch is applied, with {@code /}
     */
    static String of(String path, String before, String after) {
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

    private static List<String> lines(String text) {
        String t = text.replace("\r\n", "\n");
        List<String> lines = new ArrayList<>(Arrays.asList(t.split("\n", -1)));
        if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }
}
