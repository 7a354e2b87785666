package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.maven.repair.CandidateCompiler;
import io.github.odrust.maven.repair.JavaSources;
import io.github.odrust.maven.repair.UnifiedPatch;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PatcherTest {
    @TempDir
    Path dir;

    private static final String VICTIM = String.join(
            "\n",
            "package com.acme.victims;",
            "",
            "import org.junit.jupiter.api.Test;",
            "",
            "class VictimTest {",
            "    private int unrelated = 1;",
            "",
            "    @Test",
            "    void expectsClean() {",
            "        // a comment the patch must keep as it is",
            "        if (unrelated != 1) throw new AssertionError();",
            "    }",
            "}",
            "");

    private static final String CLEANER = String.join(
            "\n",
            "package com.acme.cleaners;",
            "",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "import java.util.concurrent.atomic.AtomicInteger;",
            "import org.junit.jupiter.api.BeforeEach;",
            "import org.junit.jupiter.api.Test;",
            "",
            "public class CleanerTest {",
            "    public static final List<String> SHARED = new ArrayList<>();",
            "    private static int counter;",
            "    private AtomicInteger seen = new AtomicInteger(3);",
            "    private String name;",
            "",
            "    @BeforeEach",
            "    void setUp() {",
            "        name = \"x\";",
            "    }",
            "",
            "    private static void wipe(List<String> l) {",
            "        l.clear();",
            "    }",
            "",
            "    @Test",
            "    public void cleans() throws Exception {",
            "        wipe(SHARED);",
            "        this.seen.set(name.length());",
            "        int local = seen.get();",
            "        if (local != 1) throw new IllegalStateException();",
            "    }",
            "}",
            "");

    private JavaSources sources() throws Exception {
        Path root = dir.resolve("src/test/java");
        write(root.resolve("com/acme/victims/VictimTest.java"), VICTIM);
        write(root.resolve("com/acme/cleaners/CleanerTest.java"), CLEANER);
        return new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
    }

    private static void write(Path p, String text) throws Exception {
        Files.createDirectories(p.getParent());
        Files.write(p, text.getBytes(StandardCharsets.UTF_8));
    }

    private static List<Integer> all(FixCode fix) {
        return IntStream.range(0, fix.statements.size()).boxed().collect(Collectors.toList());
    }

    @Test
    void inlinesAnotherPackagesCleanerSoThatItCompilesAndKeepsTheRestOfTheFileByteForByte() throws Exception {
        JavaSources sources = sources();
        FixCode fix = FixCode.load(sources, "com.acme.cleaners.CleanerTest#cleans", "com.acme.victims.VictimTest");
        assertNull(fix.unusable);
        assertEquals(1, fix.setupStatements, "the cleaner's own setup comes first");
        assertEquals(5, fix.statements.size());
        Path file = sources.find("com.acme.victims.VictimTest");
        Patcher.Result r = new Patcher("com.acme.victims.VictimTest#expectsClean", file, VICTIM)
                .patch(fix, all(fix), Patcher.Placement.SETUP, true, "odrust: line one\nline two");
        String text = r.text;
        // the original lines are all still there, in order (insertions only)
        List<String> kept = new ArrayList<>(List.of(text.split("\n")));
        int i = 0;
        for (String line : VICTIM.split("\n")) {
            while (i < kept.size() && !kept.get(i).equals(line)) {
                i++;
            }
            assertTrue(i < kept.size(), "lost or changed line: " + line + "\n" + text);
            i++;
        }
        assertTrue(
                text.contains(
                        "    // odrust: line one\n    // line two\n    @BeforeEach\n    void odrustCleanBeforeExpectsClean() throws Exception {"),
                text);
        assertTrue(text.contains("import org.junit.jupiter.api.BeforeEach;"), text);
        assertTrue(text.contains("import java.util.concurrent.atomic.AtomicInteger;"), text);
        assertFalse(text.contains("import java.util.ArrayList;"), "an import the copied code does not use:\n" + text);
        assertTrue(
                text.contains("AtomicInteger seen = new AtomicInteger(3);"),
                "an instance field becomes a local:\n" + text);
        assertTrue(text.contains("String name = \"x\";"), "the setup's assignment declares the local:\n" + text);
        assertTrue(
                text.contains("com.acme.cleaners.CleanerTest.SHARED"), "a public static field by its class:\n" + text);
        assertTrue(text.contains("private static void wipe("), "a private static helper is copied:\n" + text);
        assertTrue(text.contains("        seen.set(name.length());"), "this.x of an inlined field:\n" + text);
        assertEquals("odrustCleanBeforeExpectsClean", r.method);

        // it compiles against the cleaner's class
        Path cleanerClasses = dir.resolve("cleaner");
        List<File> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            cp.add(new File(e));
        }
        assertNull(new CandidateCompiler(cp, StandardCharsets.UTF_8, null)
                .compile(CLEANER, "com/acme/cleaners/CleanerTest.java", cleanerClasses));
        cp.add(0, cleanerClasses.resolve("classes").toFile());
        assertNull(new CandidateCompiler(cp, StandardCharsets.UTF_8, null)
                .compile(text, "com/acme/victims/VictimTest.java", dir.resolve("victim")));
        assertTrue(Files.isRegularFile(dir.resolve("victim/classes/com/acme/victims/VictimTest.class")));

        // a subset that drops a declaration the rest needs does not compile, and says where
        String broken = new Patcher("com.acme.victims.VictimTest#expectsClean", file, VICTIM)
                .patch(fix, List.of(4), Patcher.Placement.SETUP, true, "odrust")
                .text;
        String error = new CandidateCompiler(cp, StandardCharsets.UTF_8, null)
                .compile(broken, "com/acme/victims/VictimTest.java", dir.resolve("broken"));
        assertTrue(
                error != null && error.startsWith("line ") && error.contains("cannot find symbol"),
                String.valueOf(error));
    }

    @Test
    void callsTheHelperFromTheExistingSetupOrTheTestAndDeclaresWhatItThrows() throws Exception {
        String source = String.join(
                "\n",
                "package p;",
                "import org.junit.Before;",
                "import org.junit.Test;",
                "public class SameTest {",
                "  private StringBuilder b;",
                "  @Before public void init() {",
                "    b = new StringBuilder();",
                "  }",
                "  @Test public void victim() {",
                "    b.append(1);",
                "  }",
                "  @Test public void cleaner() throws java.io.IOException {",
                "    b.setLength(0);",
                "    System.gc();",
                "  }",
                "}",
                "");
        Path root = dir.resolve("t");
        write(root.resolve("p/SameTest.java"), source);
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        FixCode fix = FixCode.load(sources, "p.SameTest#cleaner", "p.SameTest");
        assertEquals(0, fix.setupStatements, "the same class: its setup runs anyway");
        assertEquals(2, fix.statements.size());
        Path file = root.resolve("p/SameTest.java");

        Patcher.Result setup = new Patcher("p.SameTest#victim", file, source)
                .patch(fix, List.of(0), Patcher.Placement.SETUP, true, "odrust");
        // after the class's own setup (where the cleaner's body ran), two-space indentation kept
        assertTrue(
                setup.text.contains("    b = new StringBuilder();\n    odrustCleanBeforeVictim();\n  }"), setup.text);
        assertTrue(setup.text.contains("@Before public void init() throws Exception {"), setup.text);
        assertTrue(
                setup.text.contains(
                        "  private void odrustCleanBeforeVictim() throws Exception {\n    b.setLength(0);\n  }"),
                setup.text);
        assertEquals("init", setup.method);

        Patcher.Result test = new Patcher("p.SameTest#victim", file, source)
                .patch(fix, List.of(0, 1), Patcher.Placement.TEST, true, "odrust");
        assertTrue(
                test.text.contains(
                        "@Test public void victim() throws Exception {\n    odrustCleanBeforeVictim();\n    b.append(1);"),
                test.text);
        assertEquals("victim", test.method);
    }

    @Test
    void codeFromAnotherClassGoesBeforeTheExistingSetupAndTheShortIdNamesClassAndMethod() throws Exception {
        String victim = "package com.acme.victims;\nimport org.junit.jupiter.api.*;\nclass VictimTest {\n"
                + "    @BeforeEach\n    void prepare() {\n        System.setProperty(\"a\", \"b\");\n    }\n"
                + "    @Test\n    void expectsClean() {\n    }\n}\n";
        JavaSources sources = sources();
        Path file = dir.resolve("src/test/java/com/acme/victims/VictimTest.java");
        write(file, victim);
        FixCode fix = FixCode.load(sources, "com.acme.cleaners.CleanerTest#cleans", "com.acme.victims.VictimTest");
        Patcher.Result r = new Patcher("com.acme.victims.VictimTest#expectsClean", file, victim)
                .patch(fix, List.of(1), Patcher.Placement.SETUP, true, "odrust");
        assertTrue(
                r.text.contains(
                        "    void prepare() throws Exception {\n        odrustCleanBeforeExpectsClean();\n        System.setProperty("),
                r.text);
        assertEquals("prepare", r.method);
        assertEquals(
                "CartTest#isEmpty(String, int)",
                io.github.odrust.maven.core.Words.shortId(
                        "com.acme.CartTest#isEmpty(java.lang.String, int)".replace("java.lang.", "")));
    }

    @Test
    void aTeardownPatchGoesIntoThePollutersClassAfterItsOwnTeardownOrAsANewOne() throws Exception {
        String polluter = "package p;\nimport org.junit.After;\nimport org.junit.Test;\npublic class PolluterTest {\n"
                + "    @Test\n    public void pollutes() {\n    }\n"
                + "    @After\n    public void close() {\n        System.clearProperty(\"x\");\n    }\n}\n";
        String cleaner =
                "package p;\nimport org.junit.Test;\npublic class CleanerTest {\n    @Test\n    public void cleans() {\n"
                        + "        Shared.reset();\n    }\n}\n";
        Path root = dir.resolve("td");
        write(root.resolve("p/PolluterTest.java"), polluter);
        write(root.resolve("p/CleanerTest.java"), cleaner);
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        // the cleaner's statements are counted for the victim (another class); the patch edits the polluter
        FixCode fix = FixCode.load(sources, "p.CleanerTest#cleans", "p.VictimTest");
        Patcher.Result r = new Patcher("p.PolluterTest#pollutes", root.resolve("p/PolluterTest.java"), polluter)
                .patch(fix, List.of(0), Patcher.Placement.TEARDOWN, true, "odrust");
        assertTrue(
                r.text.contains("        System.clearProperty(\"x\");\n        odrustCleanAfterPollutes();\n    }"),
                r.text);
        assertTrue(
                r.text.contains("    private void odrustCleanAfterPollutes() {\n        Shared.reset();\n    }"),
                r.text);
        assertEquals("close", r.method);

        String bare = polluter.replace(
                "    @After\n    public void close() {\n        System.clearProperty(\"x\");\n    }\n", "");
        Patcher.Result fresh = new Patcher("p.PolluterTest#pollutes", root.resolve("p/PolluterTest.java"), bare)
                .patch(fix, List.of(0), Patcher.Placement.TEARDOWN, true, "odrust");
        assertTrue(fresh.text.contains("    @After\n    public void odrustCleanAfterPollutes() {"), fresh.text);
    }

    @Test
    void junit3SetUpIsTheSetupOfATestCaseAndSuperCallsAreNotCopied() throws Exception {
        String cleaner = "package p;\nimport junit.framework.TestCase;\npublic class CleanerTest extends TestCase {\n"
                + "    StringBuilder config = null;\n"
                + "    @Override\n    public void setUp() throws Exception {\n        super.setUp();\n        config = new StringBuilder();\n    }\n"
                + "    public void testClears() {\n        config.setLength(0);\n    }\n}\n";
        String victim = "package p;\nimport junit.framework.TestCase;\npublic class VictimTest extends TestCase {\n"
                + "    protected void setUp() {\n        System.gc();\n    }\n"
                + "    public void testV() {\n    }\n}\n";
        Path root = dir.resolve("j3");
        write(root.resolve("p/CleanerTest.java"), cleaner);
        write(root.resolve("p/VictimTest.java"), victim);
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        FixCode fix = FixCode.load(sources, "p.CleanerTest#testClears", "p.VictimTest");
        assertEquals(
                List.of("config = new StringBuilder();", "config.setLength(0);"), List.of(fix.text(0), fix.text(1)));
        Patcher.Result r = new Patcher("p.VictimTest#testV", root.resolve("p/VictimTest.java"), victim)
                .patch(fix, List.of(0, 1), Patcher.Placement.SETUP, true, "odrust");
        assertEquals("setUp", r.method, r.text);
        assertTrue(
                r.text.contains(
                        "protected void setUp() throws Exception {\n        odrustCleanBeforeTestV();\n        System.gc();"),
                r.text);
        assertTrue(
                r.text.contains("StringBuilder config = new StringBuilder();\n        config.setLength(0);"),
                "the setup's assignment, the field's first use, declares the local:\n" + r.text);
        String bodyOnly = new Patcher("p.VictimTest#testV", root.resolve("p/VictimTest.java"), victim)
                .patch(fix, List.of(1), Patcher.Placement.SETUP, true, "odrust")
                .text;
        assertTrue(
                bodyOnly.contains("StringBuilder config = null;\n        config.setLength(0);"),
                "without the assignment, the field's value before anything sets it:\n" + bodyOnly);
    }

    private static final String SAME = String.join(
            "\n",
            "package p;",
            "import org.junit.jupiter.api.BeforeEach;",
            "import org.junit.jupiter.api.Test;",
            "public class SameTest {",
            "  static final String NAME = \"n\";",
            "  private StringBuilder b;",
            "  static StringBuilder make() { return new StringBuilder(); }",
            "  static void mayFail() throws java.io.IOException {}",
            "  @BeforeEach public void init() {",
            "    b = new StringBuilder();",
            "  }",
            "  @Test public void victim() {",
            "    b.append(1);",
            "  }",
            "  @Test public void cleaner() throws Exception {",
            "    StringBuilder unusedCall = make();",
            "    Object unusedNew = new StringBuilder();",
            "    int unusedLiteral = 3;",
            "    String unusedField = SameTest.NAME;",
            "    Object unusedCast = (Object) b;",
            "    int used = 4;",
            "    b.setLength(used);",
            "    int chain = 1;",
            "    int onlyByUnused = chain;",
            "    int sum = used + make().length();",
            "    mayFail();",
            "  }",
            "}",
            "");

    private Path same() throws Exception {
        Path root = dir.resolve("same");
        write(root.resolve("p/SameTest.java"), SAME);
        return root;
    }

    private CandidateCompiler compiler() {
        List<File> cp = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            cp.add(new File(e));
        }
        return new CandidateCompiler(cp, StandardCharsets.UTF_8, null);
    }

    /** Candidates as odrust:repair has them, over a fixed digest of the compiled code. */
    private Candidates candidates(Path out) throws Exception {
        Candidates c = new Candidates(
                null, null, null, out, null, compiler(), new org.apache.maven.plugin.logging.SystemStreamLog());
        java.lang.reflect.Field digest = Candidates.class.getDeclaredField("codeDigest");
        digest.setAccessible(true);
        digest.set(c, "digest");
        return c;
    }

    @Test
    void aDeclarationNoLaterStatementUsesBecomesItsCallOrIsLeftOut() throws Exception {
        Path root = same();
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        FixCode fix = FixCode.load(sources, "p.SameTest#cleaner", "p.SameTest");
        Patcher.Result r = new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), SAME)
                .patch(fix, all(fix).subList(0, 10), Patcher.Placement.TEST, true, "odrust", false);
        assertTrue(
                r.text.contains("  private void odrustCleanBeforeVictim() {\n"
                        + "    make();\n"
                        + "    new StringBuilder();\n"
                        + "    int used = 4;\n"
                        + "    b.setLength(used);\n"
                        + "    int sum = used + make().length();\n"
                        + "  }"),
                r.text);
        assertNull(compiler().compile(r.text, "p/SameTest.java", dir.resolve("unused")), r.text);
        // a variable only an unused declaration names is unused too
        Patcher.Result chain = new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), SAME)
                .patch(fix, List.of(7, 8), Patcher.Placement.TEST, true, "odrust", false);
        assertTrue(chain.text.contains("  private void odrustCleanBeforeVictim() {\n  }"), chain.text);
        // a declaration a later kept statement uses stays
        Patcher.Result chained = new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), SAME)
                .patch(fix, List.of(5, 6), Patcher.Placement.TEST, true, "odrust", false);
        assertTrue(chained.text.contains("    int used = 4;\n    b.setLength(used);\n  }"), chained.text);
    }

    @Test
    void theHelperThrowsOnlyWhenItsStatementsNeedIt() throws Exception {
        Path root = same();
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        FixCode fix = FixCode.load(sources, "p.SameTest#cleaner", "p.SameTest");
        Patcher patcher = new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), SAME);
        Candidates candidates = candidates(dir.resolve("repair"));

        // the cleaner declares `throws Exception`, but b.setLength(0) throws nothing checked
        Patcher.Result quiet = candidates.patch(patcher, fix, List.of(5, 6), "setup", true, "odrust");
        assertFalse(quiet.declaresThrows);
        assertTrue(quiet.text.contains("private void odrustCleanBeforeVictim() {"), quiet.text);
        assertTrue(quiet.text.contains("@BeforeEach public void init() {"), quiet.text);
        assertNull(compiler().compile(quiet.text, "p/SameTest.java", dir.resolve("quiet")));

        // mayFail() throws an IOException: the helper and its caller declare it
        Patcher.Result loud = candidates.patch(patcher, fix, List.of(10), "setup", true, "odrust");
        assertTrue(loud.declaresThrows);
        assertTrue(loud.text.contains("private void odrustCleanBeforeVictim() throws Exception {"), loud.text);
        assertTrue(loud.text.contains("@BeforeEach public void init() throws Exception {"), loud.text);
        assertNull(compiler().compile(loud.text, "p/SameTest.java", dir.resolve("loud")));

        // the same call gives the same text again, in this run or a later one (Repairer's rebuild)
        assertEquals(loud.text, candidates.patch(patcher, fix, List.of(10), "setup", true, "odrust").text);
        assertEquals(
                loud.text,
                candidates(dir.resolve("repair")).patch(patcher, fix, List.of(10), "setup", true, "odrust").text);
        assertEquals(
                quiet.text,
                candidates(dir.resolve("repair")).patch(patcher, fix, List.of(5, 6), "setup", true, "odrust").text);

        // generated statements declare nothing: compiled to know
        FixCode reset = FixCode.generated("reset:p.SameTest.mayFail", "p.SameTest", List.of("p.SameTest.mayFail();"));
        assertTrue(candidates.patch(patcher, reset, List.of(0), "test", true, "odrust").declaresThrows);
        FixCode harmless = FixCode.generated("reset:p.SameTest.make", "p.SameTest", List.of("p.SameTest.make();"));
        assertFalse(candidates.patch(patcher, harmless, List.of(0), "test", true, "odrust").declaresThrows);
    }

    @Test
    void theHelperCanBeNamedForItsCause() throws Exception {
        Path root = same();
        JavaSources sources = new JavaSources(List.of(root.toFile()), StandardCharsets.UTF_8);
        FixCode fix = FixCode.load(sources, "p.SameTest#cleaner", "p.SameTest");
        Patcher patcher = new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), SAME);
        assertEquals(
                "odrustCleanAfterLoadsDefaults",
                patcher.withCauseName("loadsDefaults")
                        .patch(fix, List.of(6), Patcher.Placement.TEARDOWN, true, "odrust", false)
                        .helper);
        assertEquals(
                "odrustPrepareBeforeLoadsdefaults1",
                patcher.withCauseName("loads-defaults[1]")
                        .patch(fix, List.of(6), Patcher.Placement.SETUP, false, "odrust", false)
                        .helper,
                "characters no identifier can have are left out");
        assertEquals(
                "odrustCleanBeforeVictim",
                patcher.withCauseName(null)
                        .patch(fix, List.of(6), Patcher.Placement.SETUP, true, "odrust", false)
                        .helper);
        assertEquals(
                "odrustCleanBeforeVictim",
                patcher.withCauseName("()")
                        .patch(fix, List.of(6), Patcher.Placement.SETUP, true, "odrust", false)
                        .helper);
        assertEquals("p.SameTest#victim", patcher.withCauseName("x").test(), "the same file and test");
        // a name the class already has gets a number
        String taken = SAME.replace(
                "  @Test public void victim() {", "  void odrustCleanBeforeMake() {}\n  @Test public void victim() {");
        assertEquals(
                "odrustCleanBeforeMake2",
                new Patcher("p.SameTest#victim", root.resolve("p/SameTest.java"), taken)
                        .withCauseName("make")
                        .patch(fix, List.of(6), Patcher.Placement.SETUP, true, "odrust", false)
                        .helper);
    }

    @Test
    void aParameterizedOrMissingSourceIsUnusableWithAReason() throws Exception {
        JavaSources sources = sources();
        FixCode missing = FixCode.load(sources, "com.acme.other.GoneTest#x", "com.acme.victims.VictimTest");
        assertTrue(
                missing.unusable.contains("com/acme/other/GoneTest.java")
                        && missing.unusable.contains("test source roots"),
                missing.unusable);
        FixCode noMethod = FixCode.load(sources, "com.acme.cleaners.CleanerTest#nope", "com.acme.victims.VictimTest");
        assertTrue(noMethod.unusable.contains("declares no method nope"), noMethod.unusable);
        write(
                dir.resolve("src/test/java/com/acme/cleaners/BadTest.java"),
                "package com.acme.cleaners; class BadTest { void x( }");
        FixCode bad = FixCode.load(sources, "com.acme.cleaners.BadTest#x", "com.acme.victims.VictimTest");
        assertTrue(bad.unusable.startsWith("cannot parse "), bad.unusable);
    }

    @Test
    void theUnifiedDiffAppliesBackToTheNewText() {
        String before = "a\nb\nc\nd\ne\nf\ng\nh\n";
        String after = "a\nb\nX\nc\nd\ne\nf\ng\nh\nY\n";
        String patch = UnifiedPatch.of("src/test/java/A.java", before, after);
        assertTrue(
                patch.startsWith(
                        "diff --git a/src/test/java/A.java b/src/test/java/A.java\n--- a/src/test/java/A.java\n+++ b/src/test/java/A.java\n@@ "),
                patch);
        List<String> lines = List.of(patch.split("\n"));
        com.github.difflib.patch.Patch<String> parsed =
                com.github.difflib.UnifiedDiffUtils.parseUnifiedDiff(lines.subList(1, lines.size()));
        List<String> applied = assertDoesNotThrowPatch(parsed, List.of(before.split("\n")));
        assertEquals(List.of(after.split("\n")), applied);
    }

    @Test
    void aPatchOfACrlfFileAppliesWithGitAndKeepsItsLineEndings(@TempDir Path work) throws Exception {
        String before = "class A {\r\n    int a;\r\n    int b;\r\n    int c;\r\n}\r\n";
        // the insertion in the file's own line endings, as the repair writes it
        String after = "class A {\r\n    int a;\r\n    int x;\r\n    int b;\r\n    int c;\r\n}\r\n";
        String patch = UnifiedPatch.of("src/A.java", before, after);
        assertTrue(patch.contains("+    int x;\r\n"), patch);
        assertTrue(patch.contains(" class A {\r\n"), patch);
        Path file = work.resolve("src/A.java");
        Files.createDirectories(file.getParent());
        Files.write(file, before.getBytes(StandardCharsets.UTF_8));
        Files.write(work.resolve("fix.patch"), patch.getBytes(StandardCharsets.UTF_8));
        Process check = new ProcessBuilder("git", "apply", "--check", "fix.patch")
                .directory(work.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, check.waitFor(), "git apply --check: " + out + "\n" + patch);
        Process apply = new ProcessBuilder("git", "apply", "fix.patch")
                .directory(work.toFile())
                .redirectErrorStream(true)
                .start();
        apply.getInputStream().readAllBytes();
        assertEquals(0, apply.waitFor());
        assertEquals(after, new String(Files.readAllBytes(file), StandardCharsets.UTF_8), "CRLF kept");
    }

    private static List<String> assertDoesNotThrowPatch(com.github.difflib.patch.Patch<String> p, List<String> lines) {
        try {
            return com.github.difflib.DiffUtils.patch(lines, p);
        } catch (com.github.difflib.patch.PatchFailedException e) {
            throw new AssertionError(e);
        }
    }
}
