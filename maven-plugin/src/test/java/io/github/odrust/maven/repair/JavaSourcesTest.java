package io.github.odrust.maven.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.TypeDeclaration;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** Finding a test's method, and saying why when it cannot be found. */
class JavaSourcesTest {
    private static final Path FILE = Paths.get("src/test/java/p/SuiteTest.java");

    private static TypeDeclaration<?> suite() throws Exception {
        CompilationUnit cu = JavaSources.parse(
                "package p;\npublic class SuiteTest extends junit.framework.TestCase {\n"
                        + "  public void testOwn() {}\n  public void adds(int a) {}\n}\n",
                FILE);
        return JavaSources.type(cu, "p.SuiteTest", FILE);
    }

    @Test
    void aParameterizedInvocationFindsItsMethod() throws Exception {
        assertEquals("adds", JavaSources.method(suite(), "adds[0]", FILE).getNameAsString());
    }

    @Test
    void aTestNamedByItsPlaceInAJunit3SuiteSaysWhereItsCodeIs() throws Exception {
        JavaSources.SourceException e = assertThrows(
                JavaSources.SourceException.class,
                () -> JavaSources.method(suite(), "testStartsEmpty[keys/SuiteTest$Checks]", FILE));
        assertTrue(
                e.getMessage()
                        .contains("named by its place in the suite: its code is testStartsEmpty of SuiteTest$Checks"),
                e.getMessage());
        JavaSources.SourceException inherited = assertThrows(
                JavaSources.SourceException.class, () -> JavaSources.method(suite(), "testInherited", FILE));
        assertTrue(inherited.getMessage().contains("an inherited test method"), inherited.getMessage());
    }
}
