package io.github.odrust.maven.surefire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestClassScannerTest {
    @Test
    void surefireDefaultPatterns() {
        assertTrue(TestClassScanner.compile("**/*Test.java").matcher("com/acme/CartTest").matches());
        assertTrue(TestClassScanner.compile("**/*Test.java").matcher("CartTest").matches());
        assertTrue(TestClassScanner.compile("**/Test*.java").matcher("a/TestCart").matches());
        assertFalse(TestClassScanner.compile("**/*Test.java").matcher("com/acme/CartTests").matches());
        assertTrue(TestClassScanner.compile("**/*$*").matcher("com/acme/CartTest$Inner").matches());
        assertTrue(TestClassScanner.compile("CartTest").matcher("com/acme/CartTest").matches());
        assertTrue(TestClassScanner.compile("%regex[.*Cart.*Test.*]").matcher("com/acme/CartTest").matches());
        assertTrue(TestClassScanner.compile("com/acme/*Test.class").matcher("com/acme/CartTest").matches());
        assertFalse(TestClassScanner.compile("com/acme/*Test.class").matcher("com/acme/sub/CartTest").matches());
    }

    @Test
    void findsIncludedClassesAndSortsByRunOrder(@TempDir Path dir) throws Exception {
        for (String f : new String[] {"b/ZTest.class", "a/ATest.class", "a/ATest$1.class", "a/Helper.class", "c/MTests.class"}) {
            Path p = dir.resolve(f);
            Files.createDirectories(p.getParent());
            Files.createFile(p);
        }
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
    void randomRunOrderWithoutSeedWarns(@TempDir Path dir) {
        SurefireSettings s = new SurefireSettings();
        s.testClassesDirectory = dir.toFile();
        s.runOrder = "random";
        TestClassScanner scanner = new TestClassScanner();
        scanner.scan(s);
        assertEquals(1, scanner.warnings().size());
    }
}
