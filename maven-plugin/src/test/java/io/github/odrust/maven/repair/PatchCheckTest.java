package io.github.odrust.maven.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PatchCheckTest {
    @TempDir
    Path dir;

    private static final String FILE = "src/test/java/p/A.java";
    private static final String PATCH = "target/odrust/repair/p.A#a.patch";
    private static final String BEFORE = "class A {\n    int a;\n    int b;\n}\n";
    private static final String AFTER = "class A {\n    int a;\n    int x;\n    int b;\n}\n";
    /** A git that cannot be started: the Java application checks instead. */
    private static final String NO_GIT = "odrust-no-such-git";

    /** {@code root} with {@link #FILE} as {@code text} and the patch from {@code before} to {@code after}; returns the patch. */
    private static Path module(Path root, String text, String before, String after) throws Exception {
        Path file = root.resolve(FILE);
        Files.createDirectories(file.getParent());
        Files.write(file, text.getBytes(StandardCharsets.ISO_8859_1));
        Path patch = root.resolve(PATCH);
        Files.createDirectories(patch.getParent());
        Files.write(patch, UnifiedPatch.of(FILE, before, after).getBytes(StandardCharsets.ISO_8859_1));
        return patch;
    }

    private static String read(Path root) throws Exception {
        return new String(Files.readAllBytes(root.resolve(FILE)), StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code command} with sh in {@code cwd}; returns its output, failing on a non-zero exit. */
    private static String sh(Path cwd, String command) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", command)
                .directory(cwd.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), command + ": " + out);
        return out;
    }

    private Path repo() throws Exception {
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo);
        sh(repo, "git init -q .");
        return repo;
    }

    @Test
    void aRootBelowTheRepositorysTopGetsDirectoryAndTheCommandApplies() throws Exception {
        Path root = repo().resolve("modules/shop");
        Path patch = module(root, BEFORE, BEFORE, AFTER);

        PatchCheck.Result r = PatchCheck.check(root, patch);
        assertTrue(r.ok(), r.toString());
        assertEquals(PatchCheck.GIT, r.checker);
        assertEquals(BEFORE, read(root), "the check changes nothing");

        // plain `git apply` here skips the patch, and says so only with -v
        assertTrue(sh(root, "git apply -v " + PATCH).contains("Skipped patch"));
        assertEquals(BEFORE, read(root));

        String command = PatchCheck.applyCommand(root, PATCH);
        assertEquals("git apply --directory=modules/shop " + PATCH, command);
        sh(root, command);
        assertEquals(AFTER, read(root));
    }

    @Test
    void aRootAtTheRepositorysTopGetsPlainGitApply() throws Exception {
        Path root = repo();
        Path patch = module(root, BEFORE, BEFORE, AFTER);
        assertTrue(PatchCheck.check(root, patch).ok());
        String command = PatchCheck.applyCommand(root, PATCH);
        assertEquals("git apply " + PATCH, command);
        sh(root, command);
        assertEquals(AFTER, read(root));
    }

    @Test
    void aRootOutsideAnyRepositoryGetsPlainGitApply() throws Exception {
        Path root = dir.resolve("plain");
        Files.createDirectories(root);
        Process inRepo = new ProcessBuilder("git", "-C", root.toString(), "rev-parse")
                .redirectErrorStream(true)
                .start();
        inRepo.getInputStream().readAllBytes();
        assumeFalse(inRepo.waitFor() == 0, "java.io.tmpdir is inside a git repository");
        Path patch = module(root, BEFORE, BEFORE, AFTER);
        assertTrue(PatchCheck.check(root, patch).ok());
        String command = PatchCheck.applyCommand(root, PATCH);
        assertEquals("git apply " + PATCH, command);
        sh(root, command);
        assertEquals(AFTER, read(root));
        assertEquals("git apply " + PATCH, PatchCheck.applyCommand(root, PATCH, NO_GIT), "without git");
    }

    @Test
    void aPatchThatDoesNotApplyNamesTheFileWithGitAndWithout() throws Exception {
        // below a repository's top too: not skipped, checked
        Path root = repo().resolve("m");
        Path patch = module(root, BEFORE.replace("int a;", "long a;"), BEFORE, AFTER);
        PatchCheck.Result git = PatchCheck.check(root, patch);
        assertFalse(git.ok());
        assertEquals(PatchCheck.GIT, git.checker);
        assertTrue(git.reason.contains(FILE), git.reason);

        PatchCheck.Result java = PatchCheck.check(root, patch, NO_GIT);
        assertFalse(java.ok());
        assertEquals(PatchCheck.JAVA, java.checker);
        assertTrue(java.reason.startsWith(FILE + ": patch does not apply"), java.reason);
        assertTrue(java.reason.contains("\"    int a;\\n\""), java.reason);

        Files.delete(root.resolve(FILE));
        assertTrue(PatchCheck.check(root, patch).reason.contains(FILE));
        assertEquals(FILE + ": no such file in " + root.toAbsolutePath(), PatchCheck.check(root, patch, NO_GIT).reason);
    }

    @Test
    void aFileThisRunChangedIsCheckedAsThePatchFoundIt() throws Exception {
        // another patch of the same file was applied first and changed the lines this one needs
        String changed = BEFORE.replace("int a;", "long a;");
        Path root = dir.resolve("as-were");
        Path patch = module(root, changed, BEFORE, AFTER);
        for (String git : List.of("git", NO_GIT)) {
            assertFalse(PatchCheck.check(root, patch, git).ok(), git);
            PatchCheck.Result r = PatchCheck.check(
                    root, patch, git, java.util.Map.of(FILE, BEFORE.getBytes(StandardCharsets.ISO_8859_1)));
            assertTrue(r.ok(), git + ": " + r);
            assertEquals(changed, read(root), "the check changes nothing");
        }
        // bytes as they were, carriage returns included
        Path crlf = dir.resolve("as-were-crlf");
        Path lf = module(crlf, BEFORE, BEFORE, AFTER);
        assertFalse(PatchCheck.check(
                        crlf,
                        lf,
                        java.util.Map.of(FILE, BEFORE.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1)))
                .ok());
    }

    @Test
    void aCrlfFileTakesACrlfPatchAndNotAnLfOne() throws Exception {
        String crlf = BEFORE.replace("\n", "\r\n");
        Path root = dir.resolve("crlf");
        Path lfPatch = module(root, crlf, BEFORE, AFTER);
        for (String git : List.of("git", NO_GIT)) {
            PatchCheck.Result r = PatchCheck.check(root, lfPatch, git);
            assertFalse(r.ok(), r.toString());
            assertTrue(r.reason.contains(FILE), r.reason);
        }
        assertTrue(PatchCheck.check(root, lfPatch, NO_GIT).reason.contains("the file has \"class A {\\r\\n\""));

        Path crlfPatch = module(root, crlf, crlf, AFTER.replace("\n", "\r\n"));
        for (String git : List.of("git", NO_GIT)) {
            PatchCheck.Result r = PatchCheck.check(root, crlfPatch, git);
            assertTrue(r.ok(), r.toString());
        }
    }

    @Test
    void theJavaApplicationFindsAHunkALineAwayAndAnchorsOneFromTheFirstLineAsGitDoes() throws Exception {
        Path root = dir.resolve("moved");
        Path patch = module(root, "// one\n// two\n" + BEFORE, BEFORE, AFTER);
        PatchCheck.Result git = PatchCheck.check(root, patch);
        // git anchors a hunk from the first line at the start: so does odrust
        assertFalse(git.ok(), git.toString());
        PatchCheck.Result java = PatchCheck.check(root, patch, NO_GIT);
        assertTrue(java.reason.contains("must match at the file's start"), java.reason);
        String longer = "a\nb\nc\nd\ne\nf\n";
        Path second = module(root, "0\n" + longer, longer, longer.replace("d\n", "d\nX\n"));
        assertTrue(PatchCheck.check(root, second).ok());
        assertTrue(PatchCheck.check(root, second, NO_GIT).ok());
    }

    @Test
    void aPathOutsideTheRootIsRefused() throws Exception {
        Path root = dir.resolve("r");
        Files.createDirectories(root);
        Path patch = root.resolve("evil.patch");
        Files.write(patch, UnifiedPatch.of("../outside.txt", "a\n", "b\n").getBytes(StandardCharsets.UTF_8));
        PatchCheck.Result r = PatchCheck.check(root, patch);
        assertTrue(r.reason.contains("outside"), r.reason);
        assertEquals(List.of("../outside.txt"), PatchCheck.files(Files.readString(patch)));
    }

    @Test
    void argumentsAreQuotedForTheShellOnlyWhenNeeded() {
        assertEquals("target/odrust/repair/p.A#a.patch", PatchCheck.shellQuoted("target/odrust/repair/p.A#a.patch"));
        assertEquals("'my dir/x.patch'", PatchCheck.shellQuoted("my dir/x.patch"));
        assertEquals("'it'\\''s'", PatchCheck.shellQuoted("it's"));
        assertEquals("'#x'", PatchCheck.shellQuoted("#x"));
    }

    @Test
    void theJavaApplicationHonoursNoNewlineMarkers() {
        String patch = UnifiedPatch.of("f", "a\nb", "a\nb\nc");
        assertEquals("a\nb\nc", PatchCheck.applyText("f", "a\nb", patch));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> PatchCheck.applyText("f", "a\nb\n", patch));
        assertTrue(e.getMessage().contains("the patch expects \"b\""), e.getMessage());
    }
}
