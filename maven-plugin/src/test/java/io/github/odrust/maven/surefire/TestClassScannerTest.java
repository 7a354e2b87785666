package io.github.odrust.maven.surefire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestClassScannerTest {
    /** Whether Surefire's scan keeps {@code classFile} when {@code include} is the only include (and nothing is excluded). */
    private static boolean includes(String include, String classFile) throws MojoExecutionException {
        SurefireSettings s = new SurefireSettings();
        s.includes = List.of(include);
        s.excludes = List.of("**/NothingIsCalledThis.java");
        return TestSelection.of(s).selectsClassFile(classFile);
    }

    @Test
    void surefireDefaultPatterns() throws Exception {
        assertTrue(includes("**/*Test.java", "com/acme/CartTest.class"));
        assertTrue(includes("**/*Test.java", "CartTest.class"));
        assertTrue(includes("**/Test*.java", "a/TestCart.class"));
        assertFalse(includes("**/*Test.java", "com/acme/CartTests.class"));
        assertTrue(includes("**/*$*", "com/acme/CartTest$Inner.class"));
        assertTrue(includes("CartTest", "com/acme/CartTest.class"));
        assertTrue(includes("%regex[.*Cart.*Test.*]", "com/acme/CartTest.class"));
        assertTrue(includes("com/acme/*Test.class", "com/acme/CartTest.class"));
        assertFalse(includes("com/acme/*Test.class", "com/acme/sub/CartTest.class"));
    }

    @Test
    void surefireSemanticsWhereOdrustOnceDiffered() throws Exception {
        // a dotted class pattern with a wildcard is a package pattern, as in Surefire
        assertTrue(includes("com.acme.*Test", "com/acme/CartTest.class"));
        assertFalse(includes("com.acme.*Test", "com/other/CartTest.class"));
        // %regex[...] matches the class file's path: a .java in the regex does not match it
        assertTrue(includes("%regex[com/acme/.*Test.class]", "com/acme/CartTest.class"));
        assertFalse(includes("%regex[.*Cart.*Test.java]", "com/acme/CartTest.class"));
        // ! in includes excludes
        SurefireSettings s = new SurefireSettings();
        s.includes = List.of("**/*Test.java", "!**/Cart*");
        assertFalse(TestSelection.of(s).selectsClassFile("com/acme/CartTest.class"));
        assertTrue(TestSelection.of(s).selectsClassFile("com/acme/PriceTest.class"));
    }

    @Test
    void methodFilterInIncludesOrExcludesIsAnErrorAsInSurefire() {
        SurefireSettings s = new SurefireSettings();
        s.includes = List.of("**/CartTest.java#adds");
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> TestSelection.of(s));
        assertTrue(e.getMessage()
                .startsWith("Method filter prohibited in includes|excludes parameter: **/CartTest.java#adds"));
        SurefireSettings x = new SurefireSettings();
        x.excludes = List.of("CartTest#adds");
        assertThrows(MojoExecutionException.class, () -> TestSelection.of(x));
    }

    @Test
    void includesAndExcludesFilesAddToTheParametersAndMayFilterMethods(@TempDir Path dir) throws Exception {
        Path in = dir.resolve("includes.txt");
        Files.writeString(in, "# comment\n\n  **/CartTest.java#adds*  \n");
        Path ex = dir.resolve("excludes.txt");
        Files.writeString(ex, "**/OldTest.java\n");
        SurefireSettings s = new SurefireSettings();
        s.includes = List.of("**/PriceTest.java");
        s.includesFile = in.toFile();
        s.excludesFile = ex.toFile();
        TestSelection selection = TestSelection.of(s);
        assertTrue(selection.selectsClassFile("a/PriceTest.class"));
        assertTrue(selection.selectsClassFile("a/CartTest.class"));
        assertFalse(selection.selectsClassFile("a/OldTest.class"));
        assertTrue(selection.filtersMethods());
        assertTrue(selection.selectsTest("a.CartTest#addsItem", "junit5"));
        assertFalse(selection.selectsTest("a.CartTest#removes", "junit5"));
        assertTrue(selection.selectsTest("a.PriceTest#rounds", "junit5"));

        s.excludesFile = dir.resolve("missing.txt").toFile();
        assertThrows(MojoExecutionException.class, () -> TestSelection.of(s));
    }

    @Test
    void testParameterReplacesIncludesAndExcludes() throws Exception {
        SurefireSettings s = new SurefireSettings();
        s.includes = List.of("**/*Test.java");
        s.excludes = List.of("**/Cart*");
        s.test = "CartTest#adds*, Price*, !PriceOldTest";
        TestSelection selection = TestSelection.of(s);
        assertTrue(selection.selectsClassFile("com/acme/CartTest.class"));
        assertTrue(selection.selectsClassFile("com/acme/PriceTest.class"));
        assertTrue(selection.selectsClassFile("com/acme/PriceTest$Nested.class")); // no default exclude with -Dtest
        assertFalse(selection.selectsClassFile("com/acme/PriceOldTest.class"));
        assertFalse(selection.selectsClassFile("com/acme/OtherTest.class"));
        assertTrue(selection.filtersMethods());
        assertTrue(selection.selectsTest("com.acme.CartTest#addsItem", "junit4"));
        assertTrue(selection.selectsTest("com.acme.CartTest#addsItem[2]", "junit5"));
        assertFalse(selection.selectsTest("com.acme.CartTest#removes", "junit5"));
        assertTrue(selection.selectsTest("com.acme.PriceTest#rounds", "junit5"));

        s.test = "CartTest#adds";
        selection = TestSelection.of(s);
        assertTrue(selection.selectsTest("com.acme.CartTest#adds[0]", "junit4")); // vintage matches the method name
        assertFalse(selection.selectsTest("com.acme.CartTest#addsMore", "junit4"));

        s.test = "!CartTest#adds";
        selection = TestSelection.of(s);
        assertTrue(selection.selectsClassFile("com/acme/CartTest.class"));
        assertFalse(selection.selectsTest("com.acme.CartTest#adds", "junit5"));
        assertTrue(selection.selectsTest("com.acme.CartTest#removes", "junit5"));
    }

    private static Path classes(Path dir, String... files) throws Exception {
        for (String f : files) {
            Path p = dir.resolve(f);
            Files.createDirectories(p.getParent());
            Files.createFile(p);
        }
        return dir;
    }

    @Test
    void findsIncludedClassesAndSortsByRunOrder(@TempDir Path dir) throws Exception {
        classes(
                dir,
                "b/ZTest.class",
                "a/ATest.class",
                "a/ATest$1.class",
                "a/Helper.class",
                "c/MTests.class",
                "c/MTest.java");
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "alphabetical";
        assertEquals(List.of("a.ATest", "b.ZTest", "c.MTests"), new TestClassScanner().scan(s));
        s.runOrder = "reversealphabetical";
        assertEquals(List.of("c.MTests", "b.ZTest", "a.ATest"), new TestClassScanner().scan(s));
        s.excludes = List.of("**/Z*");
        assertEquals(List.of("c.MTests", "a.ATest"), new TestClassScanner().scan(s));
    }

    @Test
    void onlyTheFirstRunOrderApplies(@TempDir Path dir) throws Exception {
        classes(dir, "b/ZTest.class", "a/ATest.class", "c/MTest.class");
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "ReverseAlphabetical,alphabetical";
        assertEquals(List.of("c.MTest", "b.ZTest", "a.ATest"), new TestClassScanner().scan(s));
    }

    @Test
    void randomRunOrderShufflesWithTheSeedAsSurefireDoes(@TempDir Path dir) throws Exception {
        classes(dir, "a/ATest.class", "b/BTest.class", "c/CTest.class", "d/DTest.class", "e/ETest.class");
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "filesystem";
        List<String> expected = new ArrayList<>(new TestClassScanner().scan(s));
        Collections.shuffle(
                expected, new Random(42L)); // DefaultRunOrderCalculator: new Random(seed), Collections.shuffle
        s.runOrder = "random";
        s.runOrderRandomSeed = 42L;
        TestClassScanner scanner = new TestClassScanner();
        assertEquals(expected, scanner.scan(s));
        assertTrue(scanner.warnings().isEmpty());
    }

    @Test
    void randomRunOrderWithoutSeedWarns(@TempDir Path dir) throws Exception {
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "random";
        TestClassScanner scanner = new TestClassScanner();
        scanner.scan(s);
        assertEquals(1, scanner.warnings().size());
    }

    @Test
    void statisticsRunOrdersWarnAndUnknownOnesFail(@TempDir Path dir) throws Exception {
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "failedfirst";
        TestClassScanner scanner = new TestClassScanner();
        scanner.scan(s);
        assertEquals(1, scanner.warnings().size());
        s.runOrder = "sideways";
        MojoExecutionException e = assertThrows(MojoExecutionException.class, () -> new TestClassScanner().scan(s));
        assertTrue(e.getMessage().contains("There's no RunOrder with the name sideways"), e.getMessage());
    }
}
