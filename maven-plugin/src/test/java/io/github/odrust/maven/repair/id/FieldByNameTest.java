package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FieldByNameTest {
    @TempDir
    Path dir;

    private static final List<String> FIELDS = List.of(
            "package com.acme;",
            "",
            "import java.lang.reflect.Field;",
            "",
            "public class FieldsTest {",
            "    static class Foo {",
            "        int id;",
            "        String name, rank;",
            "        static final int MAX = 3;",
            "    }",
            "",
            "    enum Level { LOW, HIGH; int weight; }",
            "",
            "    class Inner { int a; }",
            "",
            "    public String byIndex() throws Exception {",
            "        Field[] fields = Foo.class.getDeclaredFields();",
            "        if (fields.length < 4) {",
            "            return \"short\";",
            "        }",
            "        return fields[0].getName() + \",\" + fields[2].getName() + \",\" + fields[3].getName();",
            "    }",
            "",
            "    public String direct() {",
            "        return Level.class.getDeclaredFields()[2].getName();",
            "    }",
            "",
            "    public String loop() {",
            "        StringBuilder b = new StringBuilder();",
            "        for (Field f : Foo.class.getDeclaredFields()) {",
            "            b.append(f.getName());",
            "        }",
            "        return b.toString();",
            "    }",
            "",
            "    public String passed() {",
            "        Field[] fs = Foo.class.getDeclaredFields();",
            "        return describe(fs) + fs[0];",
            "    }",
            "",
            "    public String variable(int i) {",
            "        Field[] vs = Foo.class.getDeclaredFields();",
            "        return vs[i].getName();",
            "    }",
            "",
            "    public String inner() throws Exception {",
            "        return Inner.class.getDeclaredFields()[1].getName();",
            "    }",
            "",
            "    public String other() throws Exception {",
            "        return StringBuilder.class.getDeclaredFields()[0].getName();",
            "    }",
            "",
            "    public String caught() {",
            "        try {",
            "            Field[] cs = Foo.class.getDeclaredFields();",
            "            return cs[1].getName();",
            "        } catch (Exception e) {",
            "            return \"x\";",
            "        }",
            "    }",
            "",
            "    public String held() throws Exception {",
            "        Class<Foo> clazz = Foo.class;",
            "        Field[] hs = clazz.getDeclaredFields();",
            "        return hs[1].getName();",
            "    }",
            "",
            "    public String unknown(Class<?> k) throws Exception {",
            "        return k.getDeclaredFields()[0].getName();",
            "    }",
            "",
            "    static final Class<Foo> FOO = Foo.class;",
            "",
            "    public String shadowed(Class<?> FOO) throws Exception {",
            "        return FOO.getDeclaredFields()[0].getName();",
            "    }",
            "",
            "    public String constant() throws Exception {",
            "        return FOO.getDeclaredFields()[1].getName() + FieldsTest.FOO.getName();",
            "    }",
            "",
            "    public Runnable later() throws Exception {",
            "        Field[] ls = Foo.class.getDeclaredFields();",
            "        return new Runnable() {",
            "            @Override",
            "            public void run() {",
            "                System.out.println(ls[0]);",
            "            }",
            "        };",
            "    }",
            "",
            "    interface Keys { String A = \"a\", B = \"b\"; int C = 3; }",
            "",
            "    public String keys() // the brace on the next line",
            "    {",
            "        return Keys.class.getDeclaredFields()[1].getName();",
            "    }",
            "",
            "    public String declares() throws IllegalStateException /* unchecked */ {",
            "        Field[] ds = Foo.class.getDeclaredFields();",
            "        return ds[2].getName();",
            "    }",
            "",
            "    static String describe(Field[] f) {",
            "        return \"\";",
            "    }",
            "}");

    private static String source(String eol) {
        return String.join(eol, FIELDS) + eol;
    }

    private static int lineOf(String marker) {
        return DexFixTest.lineOf(FIELDS, marker);
    }

    private static DexFix.Result one(List<DexFix.Result> results) {
        assertEquals(1, results.size(), results.toString());
        assertTrue(results.get(0).applies(), results.get(0).toString());
        return results.get(0);
    }

    private static String reason(String marker) {
        List<DexFix.Result> r = DexFix.fieldByName(source("\n"), lineOf(marker));
        assertEquals(1, r.size(), r.toString());
        assertFalse(r.get(0).applies(), r.get(0).toString());
        return r.get(0).reason();
    }

    @Test
    void eachFieldTakenByIndexIsLookedUpByTheNameDeclaredAtThatIndex() throws Exception {
        int line = lineOf("Field[] fields = Foo");
        DexFix.Result r = one(DexFix.candidates("FieldByName", source("\n"), line, null, null, () -> true, List::of));
        List<String> expected = new ArrayList<>(FIELDS);
        int use = lineOf("return fields[0]");
        expected.set(
                use - 1,
                "        return Foo.class.getDeclaredField(\"id\").getName() + \",\" + Foo.class.getDeclaredField(\"rank\")"
                        + ".getName() + \",\" + Foo.class.getDeclaredField(\"MAX\").getName();");
        // the array stays for its length check; the method throws Exception already
        assertEquals(String.join("\n", expected) + "\n", r.source());
        assertEquals(
                "FieldByName: the fields of Foo.class.getDeclaredFields() at line " + line + " taken by index are"
                        + " looked up by name, in Foo's declaration order: fields[0] → getDeclaredField(\"id\"),"
                        + " fields[2] → getDeclaredField(\"rank\"), fields[3] → getDeclaredField(\"MAX\")",
                r.description());
        assertEquals("id,rank,MAX", run(r.source(), "byIndex"));
    }

    @Test
    void anIndexOnTheCallItselfIsLookedUpAndTheMethodDeclaresTheCheckedException() throws Exception {
        int line = lineOf("Level.class");
        DexFix.Result r = one(DexFix.fieldByName(source("\r\n"), line));
        String[] lines = r.source().split("\r\n", -1);
        assertEquals("    public String direct() throws NoSuchFieldException {", lines[line - 2]);
        assertEquals("        return Level.class.getDeclaredField(\"weight\").getName();", lines[line - 1]);
        assertFalse(r.source().replace("\r\n", "").contains("\n"), "the file's CRLF line ends are kept");
        assertTrue(
                r.description().endsWith("; the method declares NoSuchFieldException, which getDeclaredField throws"));
        // enum constants come first among an enum's declared fields
        assertEquals("weight", run(r.source(), "direct"));
    }

    /** The patch for the call on the line with {@code marker}, and its line {@code below} that one. */
    private static String patchedLine(String marker, int below, DexFix.Result[] patch) {
        patch[0] = one(DexFix.fieldByName(source("\n"), lineOf(marker)));
        return patch[0].source().split("\n")[lineOf(marker) - 1 + below];
    }

    @Test
    void aTryThatCatchesAnExceptionNeedsNoThrowsClause() throws Exception {
        DexFix.Result[] r = new DexFix.Result[1];
        assertEquals(
                "            return Foo.class.getDeclaredField(\"name\").getName();", patchedLine("Field[] cs", 1, r));
        assertFalse(r[0].source().contains("caught() throws"), r[0].source());
        assertEquals("name", run(r[0].source(), "caught"));
    }

    @Test
    void aVariableHoldingTheClassLiteralNamesTheClassAndStaysTheScope() throws Exception {
        DexFix.Result[] r = new DexFix.Result[1];
        assertEquals("        return clazz.getDeclaredField(\"name\").getName();", patchedLine("Field[] hs", 1, r));
        assertEquals("name", run(r[0].source(), "held"));
    }

    @Test
    void aFinalFieldHoldingTheClassLiteralNamesItUnlessAParameterHidesIt() throws Exception {
        DexFix.Result[] r = new DexFix.Result[1];
        assertEquals(
                "        return FOO.getDeclaredField(\"name\").getName() + FieldsTest.FOO.getName();",
                patchedLine("return FOO.getDeclaredFields()[1]", 0, r));
        assertEquals("namecom.acme.FieldsTest$Foo", run(r[0].source(), "constant"));
        assertTrue(
                reason("return FOO.getDeclaredFields()[0]").contains("nor on a variable that holds one"),
                reason("return FOO.getDeclaredFields()[0]"));
    }

    @Test
    void anInterfacesConstantsAreItsFieldsAndTheThrowsClauseGoesBeforeACommentAtTheBrace() throws Exception {
        DexFix.Result[] r = new DexFix.Result[1];
        assertEquals(
                "        return Keys.class.getDeclaredField(\"B\").getName();", patchedLine("return Keys.class", 0, r));
        String[] lines = r[0].source().split("\n");
        assertEquals(
                "    public String keys() throws NoSuchFieldException // the brace on the next line",
                lines[lineOf("public String keys()") - 1]);
        assertEquals("B", run(r[0].source(), "keys"));
    }

    @Test
    void aDeclaredExceptionThatDoesNotCoverItGetsNoSuchFieldExceptionBesideIt() throws Exception {
        DexFix.Result[] r = new DexFix.Result[1];
        assertEquals("        return Foo.class.getDeclaredField(\"rank\").getName();", patchedLine("Field[] ds", 1, r));
        assertEquals(
                "    public String declares() throws IllegalStateException, NoSuchFieldException /* unchecked */ {",
                r[0].source().split("\n")[lineOf("public String declares()") - 1]);
        assertEquals("rank", run(r[0].source(), "declares"));
    }

    @Test
    void whereTheOrderStillMattersOrTheNameIsNotKnownItSaysWhy() {
        assertTrue(reason("for (Field f").contains("is not taken by index (fields[0]) nor kept in a local variable"));
        assertTrue(
                reason("Field[] fs")
                        .contains("fs is used at line " + lineOf("describe(fs)")
                                + " other than by a constant index or .length (describe(fs))"),
                reason("Field[] fs"));
        assertTrue(reason("Field[] vs").contains("vs[i] at line " + lineOf("vs[i]") + " has no constant index"));
        assertTrue(
                reason("Inner.class")
                        .contains(
                                "Inner declares 1 fields in this file, so the field at index 1 is one" + " javac adds"),
                reason("Inner.class"));
        assertTrue(
                reason("StringBuilder.class").contains("StringBuilder is not declared in FieldsTest.java"),
                reason("StringBuilder.class"));
        assertTrue(reason("b.append").contains("has no `.getDeclaredFields()` call"));
        assertTrue(
                reason("Field[] ls").contains("run overrides another method and does not declare NoSuchFieldException"),
                reason("Field[] ls"));
        assertTrue(
                reason("k.getDeclaredFields").contains("is not called on a class literal (T.class) nor on a variable"),
                reason("k.getDeclaredFields"));
    }

    /** Compiles {@code source} and calls its no-argument method {@code method} on a new instance. */
    private String run(String source, String method) throws Exception {
        return (String) Javac.call(dir, source, "com/acme/FieldsTest.java", "com.acme.FieldsTest", method);
    }
}
