package io.github.odrust.maven.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each patch applied with the real {@code git apply} gives back {@code after} byte for byte. */
class UnifiedPatchTest {
    @TempDir
    Path dir;

    private static final String PATH = "src/test/java/p/A.java";

    /** Writes {@code before}, the patch, checks and applies it with git; returns the patch. */
    private String appliesWithGit(String before, String after) throws Exception {
        Path file = dir.resolve(PATH);
        Files.createDirectories(file.getParent());
        Files.write(file, before.getBytes(StandardCharsets.ISO_8859_1));
        String patch = UnifiedPatch.of(PATH, before, after);
        Files.write(dir.resolve("fix.patch"), patch.getBytes(StandardCharsets.ISO_8859_1));
        String check = git("apply", "--check", "-v", "fix.patch");
        assertTrue(!check.contains("Skipped patch"), check);
        git("apply", "fix.patch");
        assertEquals(
                after,
                new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1),
                "byte for byte, with the patch\n" + patch);
        // the Java application agrees (git's stand-in when git is missing)
        assertEquals(after, PatchCheck.applyText(PATH, before, patch));
        return patch;
    }

    /** Runs git in {@link #dir} (never in an enclosing repository); fails on a non-zero exit. */
    private String git(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment()
                .put("GIT_CEILING_DIRECTORIES", dir.toRealPath().getParent().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
        return out;
    }

    /**
     * The hunks {@code git diff --no-index} writes for the same change (from the first {@code @@}),
     * without the function names git adds after a hunk's header (which git apply ignores).
     */
    private String gitDiffHunks(String before, String after) throws Exception {
        Files.write(dir.resolve("before.txt"), before.getBytes(StandardCharsets.ISO_8859_1));
        Files.write(dir.resolve("after.txt"), after.getBytes(StandardCharsets.ISO_8859_1));
        ProcessBuilder pb = new ProcessBuilder("git", "diff", "--no-index", "--no-color", "before.txt", "after.txt")
                .directory(dir.toFile());
        pb.environment()
                .put("GIT_CEILING_DIRECTORIES", dir.toRealPath().getParent().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertEquals(1, p.waitFor(), out);
        return out.substring(out.indexOf("@@")).replaceAll("(?m)^(@@ [^@]* @@) .*$", "$1");
    }

    private static String hunks(String patch) {
        return patch.substring(patch.indexOf("@@"));
    }

    @Test
    void changesOfOneFileAreMergedWhenTheyTouchOtherLines() {
        String before = "import a;\r\nclass T {\r\n  x(1);\r\n  keep;\r\n  y(2);\r\n}\r\n";
        String one = "import a;\r\nimport b;\r\nclass T {\r\n  x(9);\r\n  keep;\r\n  y(2);\r\n}\r\n";
        String two = "import a;\r\nimport b;\r\nclass T {\r\n  x(1);\r\n  keep;\r\n  y(8);\r\n}\r\n";
        // the import both add is added once; each keeps its CRLF
        assertEquals(
                "import a;\r\nimport b;\r\nclass T {\r\n  x(9);\r\n  keep;\r\n  y(8);\r\n}\r\n",
                UnifiedPatch.merge(before, List.of(one, two)));
        assertEquals(one, UnifiedPatch.merge(before, List.of(one)));
        assertEquals(before, UnifiedPatch.merge(before, List.of()));
        // the same line changed two ways, or neighbouring lines changed: not merged
        String other = "import a;\r\nclass T {\r\n  x(7);\r\n  keep;\r\n  y(2);\r\n}\r\n";
        assertNull(UnifiedPatch.merge(before, List.of(one, other)));
        String next = "import a;\r\nclass T {\r\n  x(1);\r\n  kept;\r\n  y(2);\r\n}\r\n";
        assertNull(UnifiedPatch.merge(before, List.of(other, next)));
    }

    @Test
    void linesTwoPatchesAddAtOnePlaceAreBothAddedImportsSorted() {
        String before = "import a.A;\nimport d.D;\nclass T {\n  x(1);\n}\n";
        String set = "import a.A;\nimport c.LinkedHashSet;\nimport d.D;\nclass T {\n  x(1);\n}\n";
        String map = "import a.A;\nimport b.LinkedHashMap;\nimport d.D;\nclass T {\n  x(1);\n}\n";
        assertEquals(
                "import a.A;\nimport b.LinkedHashMap;\nimport c.LinkedHashSet;\nimport d.D;\nclass T {\n  x(1);\n}\n",
                UnifiedPatch.merge(before, List.of(set, map)));
        // other lines added at one place: both, in the patches' order; a line both add, once
        String one = "import a.A;\nimport d.D;\nclass T {\n  // one\n  x(1);\n}\n";
        String two = "import a.A;\nimport d.D;\nclass T {\n  // two\n  // one\n  x(1);\n}\n";
        assertEquals(
                "import a.A;\nimport d.D;\nclass T {\n  // one\n  // two\n  x(1);\n}\n",
                UnifiedPatch.merge(before, List.of(one, two)));
        // an insertion where another patch changes the next line still conflicts
        String changed = "import a.A;\nimport d.D;\nclass T {\n  x(2);\n}\n";
        assertNull(UnifiedPatch.merge(before, List.of(one, changed)));
    }

    @Test
    void lf() throws Exception {
        String before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
        String after = "a\nb\nX\nc\nd\ne\nf\ng\nh\ni\nj\nY\n";
        String patch = appliesWithGit(before, after);
        assertTrue(
                patch.startsWith("diff --git a/" + PATH + " b/" + PATH + "\n--- a/" + PATH + "\n+++ b/" + PATH
                        + "\n@@ -1,5 +1,6 @@\n a\n b\n+X\n c\n"),
                patch);
        assertEquals(gitDiffHunks(before, after), hunks(patch));
    }

    @Test
    void crlf() throws Exception {
        String before = "class A {\r\n    int a;\r\n    int b;\r\n}\r\n";
        String after = "class A {\r\n    int a;\r\n    int x;\r\n    int b;\r\n}\r\n";
        String patch = appliesWithGit(before, after);
        assertTrue(patch.contains("\n+    int x;\r\n"), patch);
        assertTrue(patch.contains("\n class A {\r\n"), patch);
        assertEquals(gitDiffHunks(before, after), hunks(patch));
    }

    @Test
    void mixedLineEndingsKeepEachLinesOwn() throws Exception {
        String before = "one\r\ntwo\nthree\r\nfour\n";
        String after = "one\r\ntwo\nnew\r\nthree\r\nfour\nfive\n";
        String patch = appliesWithGit(before, after);
        assertTrue(patch.contains("\n two\n+new\r\n three\r\n four\n+five\n"), patch);
        assertEquals(gitDiffHunks(before, after), hunks(patch));
    }

    @Test
    void aLineThatOnlyChangesItsEndingIsAChange() throws Exception {
        appliesWithGit("a\nb\r\nc\n", "a\nb\nc\n");
    }

    @Test
    void noFinalNewlineBefore() throws Exception {
        String before = "a\nb\nc\nd\ne\nlast";
        String after = "a\nb\nc\nd\ne\nlast\n";
        String patch = appliesWithGit(before, after);
        assertTrue(patch.endsWith("-last\n\\ No newline at end of file\n+last\n"), patch);
        assertEquals(gitDiffHunks(before, after), hunks(patch));
        // a change elsewhere keeps the missing newline, in the context
        String far = "a\nb\nc\nlast";
        String edited = "a\nX\nb\nc\nlast";
        String second = appliesWithGit(far, edited);
        assertTrue(second.endsWith(" last\n\\ No newline at end of file\n"), second);
        assertEquals(gitDiffHunks(far, edited), hunks(second));
    }

    @Test
    void noFinalNewlineAfter() throws Exception {
        String before = "a\nb\nlast\n";
        String after = "a\nb\nlast";
        String patch = appliesWithGit(before, after);
        assertTrue(patch.endsWith("-last\n+last\n\\ No newline at end of file\n"), patch);
        assertEquals(gitDiffHunks(before, after), hunks(patch));
    }

    @Test
    void anAddedLastLine() throws Exception {
        String patch = appliesWithGit("a\nb\n", "a\nb\nc\n");
        assertTrue(patch.endsWith("@@ -1,2 +1,3 @@\n a\n b\n+c\n"), patch);
        // after a last line without a newline, in a CRLF file
        String crlf = appliesWithGit("a\r\nb", "a\r\nb\r\nc\r\n");
        assertTrue(crlf.endsWith("-b\n\\ No newline at end of file\n+b\r\n+c\r\n"), crlf);
        assertEquals(gitDiffHunks("a\r\nb", "a\r\nb\r\nc\r\n"), hunks(crlf));
    }

    @Test
    void anEmptyFile() throws Exception {
        String filled = appliesWithGit("", "class A {\n}\n");
        assertTrue(filled.endsWith("@@ -0,0 +1,2 @@\n+class A {\n+}\n"), filled);
        assertEquals(gitDiffHunks("", "class A {\n}\n"), hunks(filled));
        String emptied = appliesWithGit("x\n", "");
        assertTrue(emptied.endsWith("@@ -1 +0,0 @@\n-x\n"), emptied);
        appliesWithGit("", "no newline");
    }

    @Test
    void hunksFarApartStaySeparate() throws Exception {
        StringBuilder before = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            before.append("line ").append(i).append('\n');
        }
        String after = before.toString().replace("line 2\n", "line 2\nadded\n").replace("line 25\n", "");
        String patch = appliesWithGit(before.toString(), after);
        assertEquals(2, patch.split("\n@@ ", -1).length - 1, patch);
        assertEquals(gitDiffHunks(before.toString(), after), hunks(patch));
    }
}
