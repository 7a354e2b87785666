package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.maven.repair.JavaSources;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DexFix's rewrites on small realistic test sources: the patched text is the original with
 * exactly the expected lines changed (every other character identical, CRLF kept), and it
 * compiles (javax.tools; AssertJ and Hamcrest samples only where their jars are in the local
 * Maven repository, Truth samples are checked as text and parsed).
 */
class DexFixTest {
    @TempDir
    Path dir;

    // ---------------------------------------------------------------- HashToLinkedHash

    private static final List<String> REGISTRY = List.of(
            "package com.acme;",
            "",
            "import java.util.HashMap;",
            "import java.util.HashSet;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Set;",
            "import org.junit.jupiter.api.Test;",
            "",
            "class RegistryTest {",
            "    // a comment that stays as it is",
            "    private final Map<String, Integer> counts = new HashMap<>();",
            "    private static final Set<String> NAMES = new HashSet<>(List.of(\"b\", \"a\"));",
            "",
            "    @Test",
            "    void keysInOrder() {",
            "\tMap<String, List<String>> byName = new HashMap<String, List<String>>(16, 0.75f);",
            "        HashMap<String, Integer> declared = new HashMap<>(counts);",
            "        register(new HashMap<>(counts), \"x\");",
            "        Set<String> a = new HashSet<>(), b = new HashSet<>(List.of(\"x\"));",
            "        Map<String, Integer> seeded = new HashMap<String, Integer>() {{",
            "            put(\"a\", 1);",
            "            put(\"b\", 2);",
            "        }};",
            "        Set<String> spread = new HashSet<>(",
            "                NAMES);",
            "        Set<String> sorted = new java.util.TreeSet<>(NAMES);",
            "    }",
            "",
            "    private static void register(Map<String, Integer> m, String s) {",
            "    }",
            "}");

    private static final String IMPORT_LHM = "import java.util.LinkedHashMap;";
    private static final String IMPORT_LHS = "import java.util.LinkedHashSet;";

    @Test
    void aFieldInitializerBecomesLinkedAndTheImportGoesWhereItSorts() throws Exception {
        String source = join("\n", REGISTRY);
        int line = lineOf(REGISTRY, "counts = new HashMap");
        DexFix.Result r = one(DexFix.hashToLinkedHash(source, line, "HashMap"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "    private final Map<String, Integer> counts = new LinkedHashMap<>();"),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHM)),
                r.source());
        assertEquals(
                "new HashMap<>() at line " + line + " becomes new LinkedHashMap<>() (java.util.LinkedHashMap imported)",
                r.description());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
    }

    @Test
    void aStaticFieldInitializerOfAHashSetWithArgumentsImportsLinkedHashSetAfterHashSetsImport() throws Exception {
        int line = lineOf(REGISTRY, "NAMES = new HashSet");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "java.util.HashSet"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "    private static final Set<String> NAMES = new LinkedHashSet<>(List.of(\"b\", \"a\"));"),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHS)),
                r.source());
        assertTrue(
                r.description().startsWith("new HashSet<>(...) at line " + line + " becomes new LinkedHashSet<>(...)"),
                r.description());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
    }

    @Test
    void aLocalKeepsItsTypeArgumentsConstructorArgumentsAndTabs() throws Exception {
        int line = lineOf(REGISTRY, "byName = new HashMap");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "HashMap"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "\tMap<String, List<String>> byName = new LinkedHashMap<String, List<String>>(16, 0.75f);"),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHM)),
                r.source());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
    }

    @Test
    void aDeclaredHashMapTypeIsLeftAloneAndAnArgumentIsRewritten() throws Exception {
        int declared = lineOf(REGISTRY, "HashMap<String, Integer> declared");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), declared, "HashMap"));
        assertTrue(r.source().contains("        HashMap<String, Integer> declared = new LinkedHashMap<>(counts);\n"));
        assertCompiles(r.source(), "com/acme/RegistryTest.java");

        int argument = lineOf(REGISTRY, "register(new HashMap");
        r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), argument, "HashMap"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(REGISTRY, argument, "        register(new LinkedHashMap<>(counts), \"x\");"),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHM)),
                r.source());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
    }

    @Test
    void twoCreationsOnOneLineAreTwoCandidatesOfOneEditEach() throws Exception {
        int line = lineOf(REGISTRY, "Set<String> a = new HashSet");
        List<DexFix.Result> results = DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "HashSet");
        assertEquals(2, results.size(), results.toString());
        int imports = lineOf(REGISTRY, "import java.util.HashSet;");
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "        Set<String> a = new LinkedHashSet<>(), b = new HashSet<>(List.of(\"x\"));"),
                                imports,
                                IMPORT_LHS)),
                results.get(0).source());
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "        Set<String> a = new HashSet<>(), b = new LinkedHashSet<>(List.of(\"x\"));"),
                                imports,
                                IMPORT_LHS)),
                results.get(1).source());
        assertTrue(
                results.get(0).description().contains("at line " + line + ", column 25"),
                results.get(0).description());
        assertTrue(
                results.get(1).description().contains("at line " + line + ", column 46"),
                results.get(1).description());
        for (DexFix.Result r : results) {
            assertCompiles(r.source(), "com/acme/RegistryTest.java");
        }
    }

    @Test
    void aDoubleBraceSubclassIsRewrittenToo() throws Exception {
        int line = lineOf(REGISTRY, "seeded = new HashMap");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "HashMap"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        REGISTRY,
                                        line,
                                        "        Map<String, Integer> seeded = new LinkedHashMap<String, Integer>() {{"),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHM)),
                r.source());
        assertTrue(r.description().contains("new HashMap<String, Integer>() {...}"), r.description());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
        // A line inside its body: the creation spans it.
        assertEquals(
                r.source(),
                one(DexFix.hashToLinkedHash(join("\n", REGISTRY), line + 1, "HashMap"))
                        .source());
    }

    @Test
    void aLineInsideAMultiLineCreationFindsTheCreationThatSpansIt() throws Exception {
        int line = lineOf(REGISTRY, "                NAMES);");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "HashSet"));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(REGISTRY, line - 1, "        Set<String> spread = new LinkedHashSet<>("),
                                lineOf(REGISTRY, "import java.util.HashSet;"),
                                IMPORT_LHS)),
                r.source());
        assertCompiles(r.source(), "com/acme/RegistryTest.java");
    }

    @Test
    void aLineWithoutTheCreationSaysSo() {
        int line = lineOf(REGISTRY, "sorted = new java.util.TreeSet");
        DexFix.Result r =
                DexFix.hashToLinkedHash(join("\n", REGISTRY), line, "HashSet").get(0);
        assertFalse(r.applies());
        assertEquals(
                "line " + line + " of the source of RegistryTest has no `new HashSet` expression, `HashSet::new` or"
                        + " collector of java.util.stream.Collectors that makes a HashSet",
                r.reason());
        assertThrows(IllegalStateException.class, r::source);
        assertEquals(
                "the source of RegistryTest has no line 99 (it has 33)",
                DexFix.hashToLinkedHash(join("\n", REGISTRY), 99, "HashSet")
                        .get(0)
                        .reason());
        assertThrows(IllegalArgumentException.class, () -> DexFix.hashToLinkedHash("", 1, "TreeMap"));
    }

    private static final List<String> QUALIFIED = List.of(
            "package com.acme;",
            "",
            "public class QualifiedTest {",
            "    java.util.Set<String> names = new java.util.HashSet<>(java.util.List.of(\"a\"));",
            "}");

    @Test
    void aFullyQualifiedCreationStaysQualifiedAndImportsNothing() throws Exception {
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", QUALIFIED), 4, "HashSet"));
        assertEquals(
                join(
                        "\n",
                        with(
                                QUALIFIED,
                                4,
                                "    java.util.Set<String> names = new java.util.LinkedHashSet<>(java.util.List.of(\"a\"));")),
                r.source());
        assertEquals(
                "new java.util.HashSet<>(...) at line 4 becomes new java.util.LinkedHashSet<>(...)", r.description());
        assertCompiles(r.source(), "com/acme/QualifiedTest.java");
    }

    private static final List<String> WILDCARD = List.of(
            "package com.acme;",
            "",
            "import java.util.*;",
            "",
            "public class WildcardTest {",
            "    Set<String> names() {",
            "        return new HashSet<>(Arrays.asList(\"b\", \"a\"));",
            "    }",
            "}",
            "");

    @Test
    void aCrlfFileWithAWildcardImportStaysCrlfAndGetsNoImport() throws Exception {
        String source = join("\r\n", WILDCARD);
        DexFix.Result r = one(DexFix.hashToLinkedHash(source, 7, "HashSet"));
        assertEquals(
                join("\r\n", with(WILDCARD, 7, "        return new LinkedHashSet<>(Arrays.asList(\"b\", \"a\"));")),
                r.source());
        assertEquals(source.split("\r\n", -1).length, r.source().split("\r\n", -1).length);
        assertFalse(r.source().replace("\r\n", "").contains("\n"));
        assertTrue(r.description().endsWith("new LinkedHashSet<>(...)"), r.description());
        assertCompiles(r.source(), "com/acme/WildcardTest.java");
    }

    private static final List<String> ONLY_USE = List.of(
            "package com.acme;",
            "",
            "import java.util.HashMap;",
            "import java.util.Iterator;",
            "import java.util.List;",
            "import java.util.Map;",
            "",
            "public class Provider {",
            "    private final Map<String, Object> parameters = new HashMap<>();",
            "",
            "    Iterator<String> keys(List<String> extra) {",
            "        return parameters.keySet().iterator();",
            "    }",
            "}");

    @Test
    void theLastUseOfHashMapTakesItsImportAndLinkedHashMapsGoesWhereItSorts() throws Exception {
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", ONLY_USE), 9, "HashMap"));
        // as maintainers write it, and as checkstyle's UnusedImports and an import order accept it
        List<String> expected = without(
                inserted(
                        with(ONLY_USE, 9, "    private final Map<String, Object> parameters = new LinkedHashMap<>();"),
                        4,
                        IMPORT_LHM),
                3);
        assertEquals(join("\n", expected), r.source());
        assertEquals(
                "new HashMap<>() at line 9 becomes new LinkedHashMap<>() (java.util.LinkedHashMap imported;"
                        + " java.util.HashMap's import, no longer used, removed)",
                r.description());
        assertCompiles(r.source(), "com/acme/Provider.java");
        // CRLF lines: the import's whole line goes, its ending with it
        DexFix.Result crlf = one(DexFix.hashToLinkedHash(join("\r\n", ONLY_USE), 9, "HashMap"));
        assertEquals(join("\r\n", expected), crlf.source());
    }

    @Test
    void hashMapStillNamedElsewhereKeepsItsImportAndUnsortedImportsTakeTheNewOneAfterIt() throws Exception {
        // named in a comment: the import stays (a Javadoc {@link HashMap} needs it)
        List<String> commented = with(ONLY_USE, 10, "    // not a HashMap: ordered");
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", commented), 9, "HashMap"));
        assertTrue(r.source().contains("import java.util.HashMap;\n"), r.source());
        assertTrue(r.source()
                .contains("import java.util.Iterator;\nimport java.util.LinkedHashMap;\nimport java.util.List;"));
        assertFalse(r.description().contains("removed"), r.description());
        // imports in an order of the file's own: the new one right after HashMap's, as before
        List<String> unsorted = with(with(ONLY_USE, 4, "import java.util.Map;"), 6, "import java.util.Iterator;");
        r = one(DexFix.hashToLinkedHash(join("\n", unsorted), 9, "HashMap"));
        assertTrue(
                r.source().startsWith("package com.acme;\n\nimport java.util.LinkedHashMap;\nimport java.util.Map;\n"),
                r.source());
        assertCompiles(r.source(), "com/acme/Provider.java");
    }

    private static final List<String> CLASH = List.of(
            "package com.acme;",
            "",
            "import java.util.HashSet;",
            "import java.util.Set;",
            "",
            "public class ClashTest {",
            "    static class LinkedHashSet {",
            "    }",
            "",
            "    Set<String> names = new HashSet<>();",
            "}");

    @Test
    void aClashingSimpleNameIsWrittenFullyQualified() throws Exception {
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", CLASH), 10, "HashSet"));
        // HashSet's import, used nowhere else, goes
        assertEquals(
                join("\n", without(with(CLASH, 10, "    Set<String> names = new java.util.LinkedHashSet<>();"), 3)),
                r.source());
        assertTrue(
                r.description()
                        .endsWith("(written fully qualified: LinkedHashSet means another type in this file;"
                                + " java.util.HashSet's import, no longer used, removed)"),
                r.description());
        assertCompiles(r.source(), "com/acme/ClashTest.java");
    }

    private static final List<String> IMPORTED_CLASH = List.of(
            "package com.acme;",
            "",
            "import java.util.HashMap;",
            "import java.util.Map;",
            "",
            "public class ImportedClashTest {",
            "    Map<String, String> m = new HashMap<>();",
            "    LinkedHashMap other;",
            "}",
            "",
            "class LinkedHashMap {",
            "}");

    @Test
    void aSimpleNameDeclaredOrUsedForAnotherTypeIsNotImported() throws Exception {
        DexFix.Result r = one(DexFix.hashToLinkedHash(join("\n", IMPORTED_CLASH), 7, "HashMap"));
        assertEquals(
                join(
                        "\n",
                        without(
                                with(IMPORTED_CLASH, 7, "    Map<String, String> m = new java.util.LinkedHashMap<>();"),
                                3)),
                r.source());
        assertCompiles(r.source(), "com/acme/ImportedClashTest.java");
        // Used but not declared here: it is a type of the same package (or of an on-demand import).
        List<String> used = IMPORTED_CLASH.subList(0, 9);
        r = one(DexFix.hashToLinkedHash(join("\n", used), 7, "HashMap"));
        assertEquals(
                join("\n", without(with(used, 7, "    Map<String, String> m = new java.util.LinkedHashMap<>();"), 3)),
                r.source());
        assertTrue(
                r.description()
                        .endsWith("(written fully qualified: the file's LinkedHashMap is not java.util's;"
                                + " java.util.HashMap's import, no longer used, removed)"),
                r.description());
    }

    private static final List<String> NOT_JAVA_UTIL = List.of(
            "package com.acme;",
            "",
            "public class OwnHashMapTest {",
            "    Object m = new HashMap();",
            "}",
            "",
            "class HashMap {",
            "}");

    @Test
    void aHashMapThatIsNotJavaUtilsIsNotRewritten() {
        DexFix.Result r =
                DexFix.hashToLinkedHash(join("\n", NOT_JAVA_UTIL), 4, "HashMap").get(0);
        assertFalse(r.applies());
        assertTrue(
                r.reason()
                        .startsWith(
                                "line 4 of OwnHashMapTest.java has no `new HashMap` expression, `HashMap::new` or collector of"
                                        + " java.util.stream.Collectors that makes a HashMap: HashMap is not"),
                r.reason());
    }

    private static final List<String> PACKAGE_ONLY = List.of(
            "package com.acme;",
            "",
            "public class PackageOnlyTest {",
            "    java.util.Map<String, String> m = new java.util.HashMap<>();",
            "}");

    @Test
    void anUnparsableSourceSaysSo() {
        DexFix.Result r = DexFix.hashToLinkedHash("class {", 1, "HashMap").get(0);
        assertFalse(r.applies());
        assertTrue(r.reason().startsWith("cannot parse the source: "), r.reason());
        // and a qualified creation in a file without imports stays import-free
        assertEquals(
                join(
                        "\n",
                        with(
                                PACKAGE_ONLY,
                                4,
                                "    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();")),
                one(DexFix.hashToLinkedHash(join("\n", PACKAGE_ONLY), 4, "HashMap"))
                        .source());
    }

    // ---------------------------------------------------------------- SortFields

    private static final List<String> REFLECT = List.of(
            "package com.acme;",
            "",
            "import java.lang.reflect.Constructor;",
            "import java.lang.reflect.Field;",
            "import java.lang.reflect.Method;",
            "import java.util.ArrayList;",
            "import java.util.List;",
            "import java.util.function.Function;",
            "",
            "public class ReflectTest {",
            "    public int zeta;",
            "    public int alpha;",
            "    public int mid;",
            "",
            "    public ReflectTest() {",
            "    }",
            "",
            "    public ReflectTest(int x) {",
            "    }",
            "",
            "    public List<String> names() throws Exception {",
            "        List<String> names = new ArrayList<>();",
            "        for (Field f : ReflectTest.class.getDeclaredFields()) {",
            "            names.add(f.getName());",
            "        }",
            "        Method first = getClass().getDeclaredMethods()[0];",
            "        int n = ReflectTest.class.getMethods().length;",
            "        Constructor<?>[] cs = ReflectTest.class.getDeclaredConstructors();",
            "        Object made = ReflectTest.class.getConstructors()[0].getName();",
            "        var all = ReflectTest.class.getConstructors();",
            "        int both = ReflectTest.class.getFields().length + Object.class.getFields().length;",
            "        Function<Class<?>, Field[]> ref = Class::getDeclaredFields;",
            "        ReflectTest.class.getDeclaredFields();",
            "        Field[] done = java.util.Arrays.stream(ReflectTest.class.getDeclaredFields()).sorted(java.util.Comparator.comparing(Field::getName)).toArray(Field[]::new);",
            "        return names;",
            "    }",
            "}");

    private DexFix.Result sorted(String marker, String method) throws Exception {
        int line = lineOf(REFLECT, marker);
        DexFix.Result r = one(DexFix.sortReflection(join("\n", REFLECT), line, method));
        assertTrue(r.description().startsWith("SortFields: "), r.description());
        assertCompiles(r.source(), "com/acme/ReflectTest.java");
        return r;
    }

    @Test
    void declaredFieldsInAForLoopComeSortedByNameAndTheTestSeesThemSorted() throws Exception {
        int line = lineOf(REFLECT, "for (Field f");
        DexFix.Result r = sorted("for (Field f", "getDeclaredFields");
        assertEquals(
                join(
                        "\n",
                        with(
                                REFLECT,
                                line,
                                "        for (Field f : java.util.Arrays.stream(ReflectTest.class.getDeclaredFields())"
                                        + ".sorted(java.util.Comparator.comparing(java.lang.reflect.Field::getName)"
                                        + ".thenComparing(java.lang.reflect.Field::toString)).toArray(java.lang.reflect.Field[]::new)) {")),
                r.source());
        assertEquals(
                "SortFields: ReflectTest.class.getDeclaredFields() at line " + line
                        + " is sorted by name, then toString() (java.util.Arrays.stream(...).sorted(...).toArray(...))",
                r.description());
        // Run it: the loop now sees alpha, mid, zeta.
        Path classes = compile(r.source(), "com/acme/ReflectTest.java", List.of());
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            Class<?> c = loader.loadClass("com.acme.ReflectTest");
            Method names = c.getMethod("names");
            assertEquals(
                    List.of("alpha", "mid", "zeta"),
                    names.invoke(c.getConstructor().newInstance()));
        }
    }

    @Test
    void forJava7SourcesTheArrayIsSortedWithAnAnonymousComparatorAndNoLambda() throws Exception {
        int line = lineOf(REFLECT, "for (Field f");
        DexFix.Result r = one(DexFix.sortReflection(join("\n", REFLECT), line, "getDeclaredFields", false));
        String patched = r.source().split("\n")[line - 1];
        assertFalse(patched.contains("::") || patched.contains("->"), patched);
        assertTrue(r.description().endsWith("(Arrays.sort with a Comparator, for Java 7)"), r.description());
        Path classes = compile(r.source(), "com/acme/ReflectTest.java", List.of());
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            Class<?> c = loader.loadClass("com.acme.ReflectTest");
            assertEquals(
                    List.of("alpha", "mid", "zeta"),
                    c.getMethod("names").invoke(c.getConstructor().newInstance()));
        }
        for (String[] m : new String[][] {
            {"Method first", "getDeclaredMethods"}, {"Constructor<?>[] cs", "getDeclaredConstructors"}
        }) {
            DexFix.Result other = one(DexFix.sortReflection(join("\n", REFLECT), lineOf(REFLECT, m[0]), m[1], false));
            assertCompiles(other.source(), "com/acme/ReflectTest.java");
        }
        assertTrue(IdRepairer.atLeastJava8("1.8") && IdRepairer.atLeastJava8("17") && IdRepairer.atLeastJava8(null));
        assertFalse(IdRepairer.atLeastJava8("1.7")
                || IdRepairer.atLeastJava8("7")
                || IdRepairer.atLeastJava8("source:1.7"));
        assertTrue(IdRepairer.atLeastJava8("source:1.8"));
    }

    @Test
    void methodsAreSortedByNameThenSignatureAndIndexingStillWorks() throws Exception {
        int line = lineOf(REFLECT, "getDeclaredMethods()[0]");
        DexFix.Result r = sorted("getDeclaredMethods()[0]", "getDeclaredMethods");
        assertEquals(
                join(
                        "\n",
                        with(
                                REFLECT,
                                line,
                                "        Method first = java.util.Arrays.stream(getClass().getDeclaredMethods())"
                                        + ".sorted(java.util.Comparator.comparing(java.lang.reflect.Method::getName)"
                                        + ".thenComparing(java.lang.reflect.Method::toString)).toArray(java.lang.reflect.Method[]::new)[0];")),
                r.source());
        assertTrue(sorted("getMethods().length", "getMethods")
                .source()
                .contains(".toArray(java.lang.reflect.Method[]::new).length;"));
    }

    @Test
    void constructorsKeepTheirWildcardArrayTypeThroughAParenthesizedCast() throws Exception {
        int line = lineOf(REFLECT, "cs = ReflectTest.class.getDeclaredConstructors()");
        DexFix.Result r = sorted("cs = ReflectTest.class.getDeclaredConstructors()", "getDeclaredConstructors");
        assertEquals(
                join(
                        "\n",
                        with(
                                REFLECT,
                                line,
                                "        Constructor<?>[] cs = ((java.lang.reflect.Constructor<?>[]) "
                                        + "java.util.Arrays.stream(ReflectTest.class.getDeclaredConstructors())"
                                        + ".sorted(java.util.Comparator.comparing(java.lang.reflect.Constructor::toString))"
                                        + ".toArray(java.lang.reflect.Constructor[]::new));")),
                r.source());
        assertTrue(r.description().contains("is sorted by toString()"), r.description());
        assertTrue(sorted("getConstructors()[0].getName()", "getConstructors")
                .source()
                .contains(".toArray(java.lang.reflect.Constructor[]::new))[0].getName();"));
        sorted("var all = ", "getConstructors");
    }

    @Test
    void twoCallsOnOneLineAreTwoCandidates() throws Exception {
        int line = lineOf(REFLECT, "int both");
        List<DexFix.Result> results = DexFix.sortReflection(join("\n", REFLECT), line, "getFields");
        assertEquals(2, results.size(), results.toString());
        assertTrue(
                results.get(0).source().contains("int both = java.util.Arrays.stream(ReflectTest.class.getFields())"));
        assertTrue(results.get(0).source().contains(" + Object.class.getFields().length;"));
        assertTrue(results.get(1)
                .source()
                .contains("int both = ReflectTest.class.getFields().length + java.util.Arrays.stream("
                        + "Object.class.getFields())"));
        assertTrue(
                results.get(1).description().contains("column 72"),
                results.get(1).description());
        for (DexFix.Result r : results) {
            assertEquals(join("\n", with(REFLECT, line, r.source().split("\n")[line - 1])), r.source());
            assertCompiles(r.source(), "com/acme/ReflectTest.java");
        }
    }

    @Test
    void aMethodReferenceAnUnusedResultAndAnAlreadySortedArrayAreNotRewritten() {
        String source = join("\n", REFLECT);
        int ref = lineOf(REFLECT, "Class::getDeclaredFields");
        assertEquals(
                "line " + ref + " of ReflectTest.java has no `.getDeclaredFields()` call (it has a method reference"
                        + " ::getDeclaredFields; SortFields rewrites calls only)",
                DexFix.sortReflection(source, ref, "getDeclaredFields").get(0).reason());
        int unused = lineOf(REFLECT, "        ReflectTest.class.getDeclaredFields();");
        assertEquals(
                "line " + unused
                        + " of ReflectTest.java: ReflectTest.class.getDeclaredFields() is a statement whose result"
                        + " is not used",
                DexFix.sortReflection(source, unused, "getDeclaredFields")
                        .get(0)
                        .reason());
        int done = lineOf(REFLECT, "Field[] done");
        assertEquals(
                "line " + done + " of ReflectTest.java: ReflectTest.class.getDeclaredFields() is sorted already",
                DexFix.sortReflection(source, done, "getDeclaredFields").get(0).reason());
        assertEquals(
                "line 1 of ReflectTest.java has no `.getMethods()` call",
                DexFix.sortReflection(source, 1, "getMethods").get(0).reason());
        assertThrows(IllegalArgumentException.class, () -> DexFix.sortReflection(source, 1, "getRecordComponents"));
    }

    // ---------------------------------------------------------------- ChangeContainsExactly

    private static final List<String> ASSERTJ = List.of(
            "package com.acme;",
            "",
            "import static org.assertj.core.api.Assertions.assertThat;",
            "import static org.assertj.core.api.Assertions.entry;",
            "import static org.junit.jupiter.api.Assertions.assertEquals;",
            "",
            "import java.util.HashMap;",
            "import java.util.HashSet;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Set;",
            "import org.junit.jupiter.api.Test;",
            "",
            "class TagsTest {",
            "    @Test",
            "    void tags() {",
            "        Set<String> tags = new HashSet<>(List.of(\"b\", \"a\"));",
            "        assertThat(tags).containsExactly(\"a\", \"b\");",
            "        assertThat(tags)",
            "                .containsExactlyElementsOf(List.of(\"a\", \"b\"));",
            "        Map<String, Integer> m = new HashMap<>(Map.of(\"a\", 1, \"b\", 2));",
            "        assertThat(m).containsExactly(entry(\"a\", 1), entry(\"b\", 2));",
            "        assertThat(m).containsExactlyEntriesOf(Map.of(\"a\", 1));",
            "        assertThat(tags.toArray(new String[0])).containsExactly(\"a\", \"b\"); assertThat(tags).containsExactly(\"a\", \"b\");",
            "        assertEquals(List.of(\"a\", \"b\"), List.copyOf(tags));",
            "        assertThat(tags).containsExactlyInAnyOrder(\"a\", \"b\");",
            "    }",
            "}");

    private List<DexFix.Result> relaxed(List<String> sample, String marker, int expected) {
        List<DexFix.Result> results = DexFix.changeContainsExactly(join("\n", sample), lineOf(sample, marker));
        assertEquals(expected, results.size(), results.toString());
        results.forEach(r -> assertTrue(r.applies(), r.toString()));
        return results;
    }

    @Test
    void assertjContainsExactlyBecomesContainsExactlyInAnyOrder() throws Exception {
        int line = lineOf(ASSERTJ, "        assertThat(tags).containsExactly(");
        DexFix.Result r =
                relaxed(ASSERTJ, "        assertThat(tags).containsExactly(", 1).get(0);
        assertEquals(
                join("\n", with(ASSERTJ, line, "        assertThat(tags).containsExactlyInAnyOrder(\"a\", \"b\");")),
                r.source());
        assertEquals(
                "AssertJ: containsExactly( at line " + line + " becomes containsExactlyInAnyOrder(", r.description());
        compileIfPresent(r.source(), "com/acme/TagsTest.java", assertjJars());
    }

    @Test
    void assertjContainsExactlyElementsOfOnEitherLineOfItsStatement() throws Exception {
        int line = lineOf(ASSERTJ, ".containsExactlyElementsOf(");
        String expected = join(
                "\n",
                with(ASSERTJ, line, "                .containsExactlyInAnyOrderElementsOf(List.of(\"a\", \"b\"));"));
        DexFix.Result r = relaxed(ASSERTJ, ".containsExactlyElementsOf(", 1).get(0);
        assertEquals(expected, r.source());
        assertEquals(
                expected,
                one(DexFix.changeContainsExactly(join("\n", ASSERTJ), line - 1)).source());
        compileIfPresent(r.source(), "com/acme/TagsTest.java", assertjJars());
    }

    @Test
    void assertjMapEntriesGetTwoCandidatesOfWhichTheMapOneCompiles() throws Exception {
        int line = lineOf(ASSERTJ, "assertThat(m).containsExactly(entry");
        List<DexFix.Result> results = relaxed(ASSERTJ, "assertThat(m).containsExactly(entry", 2);
        assertEquals(
                join(
                        "\n",
                        with(
                                ASSERTJ,
                                line,
                                "        assertThat(m).containsExactlyInAnyOrder(entry(\"a\", 1), entry(\"b\", 2));")),
                results.get(0).source());
        assertEquals(
                join(
                        "\n",
                        with(ASSERTJ, line, "        assertThat(m).containsOnly(entry(\"a\", 1), entry(\"b\", 2));")),
                results.get(1).source());
        assertTrue(
                results.get(1).description().contains("for a Map"),
                results.get(1).description());
        Optional<List<Path>> jars = assertjJars();
        if (jars.isPresent()) {
            assertNotNull(compileError(results.get(0).source(), "com/acme/TagsTest.java", jars.get()));
            assertCompiles(results.get(1).source(), "com/acme/TagsTest.java", jars.get());
        }
        DexFix.Result entries = relaxed(ASSERTJ, "containsExactlyEntriesOf", 1).get(0);
        assertTrue(entries.source()
                .contains("        assertThat(m).containsExactlyInAnyOrderEntriesOf(Map.of(\"a\", 1));\n"));
        compileIfPresent(entries.source(), "com/acme/TagsTest.java", assertjJars());
    }

    @Test
    void twoStatementsOnOneLineGiveTwoCandidates() throws Exception {
        int line = lineOf(ASSERTJ, "tags.toArray(new String[0])");
        List<DexFix.Result> results = relaxed(ASSERTJ, "tags.toArray(new String[0])", 2);
        assertEquals(
                join(
                        "\n",
                        with(
                                ASSERTJ,
                                line,
                                "        assertThat(tags.toArray(new String[0])).containsExactlyInAnyOrder(\"a\", \"b\");"
                                        + " assertThat(tags).containsExactly(\"a\", \"b\");")),
                results.get(0).source());
        assertEquals(
                join(
                        "\n",
                        with(
                                ASSERTJ,
                                line,
                                "        assertThat(tags.toArray(new String[0])).containsExactly(\"a\", \"b\");"
                                        + " assertThat(tags).containsExactlyInAnyOrder(\"a\", \"b\");")),
                results.get(1).source());
        for (DexFix.Result r : results) {
            compileIfPresent(r.source(), "com/acme/TagsTest.java", assertjJars());
        }
    }

    @Test
    void junitAssertEqualsAndAnAlreadyUnorderedAssertionAreNotRewrittenAndSayWhy() {
        int line = lineOf(ASSERTJ, "assertEquals(List.of");
        String reason =
                DexFix.changeContainsExactly(join("\n", ASSERTJ), line).get(0).reason();
        assertEquals(
                "line " + line
                        + " of the source of TagsTest has no order-sensitive assertion to relax (AssertJ containsExactly,"
                        + " Hamcrest contains, Truth .inOrder()): assertEquals compares in order, and it has no order-insensitive equivalent"
                        + " without knowing the types (a List against a Set, arrays, maps)",
                reason);
        int unordered = lineOf(ASSERTJ, "containsExactlyInAnyOrder(");
        assertFalse(DexFix.changeContainsExactly(join("\n", ASSERTJ), unordered)
                .get(0)
                .applies());
        assertEquals(
                "line 14 of the source of TagsTest is in no statement",
                DexFix.changeContainsExactly(join("\n", ASSERTJ), 14).get(0).reason());
    }

    private static final List<String> HAMCREST = List.of(
            "package com.acme;",
            "",
            "import static org.hamcrest.MatcherAssert.assertThat;",
            "import static org.hamcrest.Matchers.arrayContaining;",
            "import static org.hamcrest.Matchers.contains;",
            "import static org.hamcrest.Matchers.is;",
            "",
            "import java.util.HashSet;",
            "import java.util.List;",
            "import java.util.Set;",
            "import org.hamcrest.Matchers;",
            "import org.hamcrest.collection.IsIterableContainingInOrder;",
            "import org.junit.jupiter.api.Test;",
            "",
            "public class HamcrestTest {",
            "    @Test",
            "    public void tags() {",
            "        Set<String> tags = new HashSet<>(List.of(\"b\", \"a\"));",
            "        assertThat(tags, contains(\"a\", \"b\"));",
            "        assertThat(tags.toArray(new String[0]), arrayContaining(\"a\", \"b\"));",
            "        assertThat(tags, Matchers.contains(\"a\", \"b\"));",
            "        assertThat(tags, IsIterableContainingInOrder.contains(\"a\", \"b\"));",
            "        assertThat(tags, org.hamcrest.Matchers.contains(Matchers.is(\"a\"), is(\"b\")));",
            "        assertThat(tags.contains(\"a\"), is(true));",
            "    }",
            "}");

    @Test
    void hamcrestContainsInACrlfFileBecomesContainsInAnyOrderWithItsStaticImport() throws Exception {
        int line = lineOf(HAMCREST, "assertThat(tags, contains(");
        String source = join("\r\n", HAMCREST);
        DexFix.Result r = one(DexFix.changeContainsExactly(source, line));
        assertEquals(
                join(
                        "\r\n",
                        inserted(
                                with(HAMCREST, line, "        assertThat(tags, containsInAnyOrder(\"a\", \"b\"));"),
                                lineOf(HAMCREST, "import static org.hamcrest.Matchers.contains;"),
                                "import static org.hamcrest.Matchers.containsInAnyOrder;")),
                r.source());
        assertEquals(
                "Hamcrest: contains( at line " + line + " becomes containsInAnyOrder( (import static"
                        + " org.hamcrest.Matchers.containsInAnyOrder added)",
                r.description());
        compileIfPresent(r.source(), "com/acme/HamcrestTest.java", hamcrestJars());
    }

    @Test
    void hamcrestArrayContainingAndQualifiedContainsAreRelaxed() throws Exception {
        int line = lineOf(HAMCREST, "arrayContaining(");
        DexFix.Result r = relaxed(HAMCREST, "arrayContaining(", 1).get(0);
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        HAMCREST,
                                        line,
                                        "        assertThat(tags.toArray(new String[0]), arrayContainingInAnyOrder(\"a\", \"b\"));"),
                                lineOf(HAMCREST, "import static org.hamcrest.Matchers.arrayContaining;"),
                                "import static org.hamcrest.Matchers.arrayContainingInAnyOrder;")),
                r.source());
        compileIfPresent(r.source(), "com/acme/HamcrestTest.java", hamcrestJars());

        line = lineOf(HAMCREST, "Matchers.contains(\"a\"");
        r = relaxed(HAMCREST, "Matchers.contains(\"a\"", 1).get(0);
        assertEquals(
                join(
                        "\n",
                        with(HAMCREST, line, "        assertThat(tags, Matchers.containsInAnyOrder(\"a\", \"b\"));")),
                r.source());
        compileIfPresent(r.source(), "com/acme/HamcrestTest.java", hamcrestJars());

        line = lineOf(HAMCREST, "IsIterableContainingInOrder.contains(");
        r = relaxed(HAMCREST, "IsIterableContainingInOrder.contains(", 1).get(0);
        assertEquals(
                join(
                        "\n",
                        with(
                                HAMCREST,
                                line,
                                "        assertThat(tags,"
                                        + " org.hamcrest.collection.IsIterableContainingInAnyOrder.containsInAnyOrder(\"a\", \"b\"));")),
                r.source());
        compileIfPresent(r.source(), "com/acme/HamcrestTest.java", hamcrestJars());

        line = lineOf(HAMCREST, "org.hamcrest.Matchers.contains(");
        r = relaxed(HAMCREST, "org.hamcrest.Matchers.contains(", 1).get(0);
        assertEquals(
                join(
                        "\n",
                        with(
                                HAMCREST,
                                line,
                                "        assertThat(tags, org.hamcrest.Matchers.containsInAnyOrder(Matchers.is(\"a\"), is(\"b\")));")),
                r.source());
        compileIfPresent(r.source(), "com/acme/HamcrestTest.java", hamcrestJars());
    }

    @Test
    void collectionContainsIsNotAMatcher() {
        int line = lineOf(HAMCREST, "tags.contains(\"a\")");
        assertFalse(
                DexFix.changeContainsExactly(join("\n", HAMCREST), line).get(0).applies());
    }

    private static final List<String> HAMCREST_COLLECTION = List.of(
            "package com.acme;",
            "",
            "import static org.hamcrest.MatcherAssert.assertThat;",
            "import static org.hamcrest.collection.IsIterableContainingInOrder.contains;",
            "",
            "import java.util.List;",
            "",
            "public class InOrderTest {",
            "    public void tags(List<String> tags) {",
            "        assertThat(tags, contains(\"a\", \"b\"));",
            "    }",
            "}");

    @Test
    void containsFromIsIterableContainingInOrderImportsIsIterableContainingInAnyOrder() throws Exception {
        DexFix.Result r = one(DexFix.changeContainsExactly(join("\n", HAMCREST_COLLECTION), 10));
        assertEquals(
                join(
                        "\n",
                        inserted(
                                with(
                                        HAMCREST_COLLECTION,
                                        10,
                                        "        assertThat(tags, containsInAnyOrder(\"a\", \"b\"));"),
                                4,
                                "import static org.hamcrest.collection.IsIterableContainingInAnyOrder.containsInAnyOrder;")),
                r.source());
        compileIfPresent(r.source(), "com/acme/InOrderTest.java", hamcrestJars());
    }

    private static final List<String> HAMCREST_WILDCARD = List.of(
            "package com.acme;",
            "",
            "import static org.hamcrest.MatcherAssert.assertThat;",
            "import static org.hamcrest.Matchers.*;",
            "",
            "import java.util.List;",
            "",
            "public class WildcardMatchersTest {",
            "    public void tags(List<String> tags) {",
            "        assertThat(tags, contains(\"a\", \"b\"));",
            "    }",
            "",
            "    static boolean containsInAnyOrder(String s) {",
            "        return false;",
            "    }",
            "}");

    @Test
    void wildcardMatchersNeedNoImportAndAnOwnMethodOfTheSameNameMakesItQualified() throws Exception {
        List<String> plain = HAMCREST_WILDCARD.subList(0, 11).stream().collect(Collectors.toCollection(ArrayList::new));
        plain.add("}");
        DexFix.Result r = one(DexFix.changeContainsExactly(join("\n", plain), 10));
        assertEquals(
                join("\n", with(plain, 10, "        assertThat(tags, containsInAnyOrder(\"a\", \"b\"));")), r.source());
        compileIfPresent(r.source(), "com/acme/WildcardMatchersTest.java", hamcrestJars());

        r = one(DexFix.changeContainsExactly(join("\n", HAMCREST_WILDCARD), 10));
        assertEquals(
                join(
                        "\n",
                        with(
                                HAMCREST_WILDCARD,
                                10,
                                "        assertThat(tags, org.hamcrest.Matchers.containsInAnyOrder(\"a\", \"b\"));")),
                r.source());
        compileIfPresent(r.source(), "com/acme/WildcardMatchersTest.java", hamcrestJars());
    }

    private static final List<String> TRUTH = List.of(
            "package com.acme;",
            "",
            "import static com.google.common.truth.Truth.assertThat;",
            "",
            "import java.util.List;",
            "import java.util.Set;",
            "",
            "class TruthTest {",
            "    void tags(Set<String> tags) {",
            "        assertThat(tags).containsExactly(\"a\", \"b\").inOrder();",
            "        assertThat(tags)",
            "                .containsExactlyElementsIn(List.of(\"a\", \"b\"))",
            "                .inOrder();",
            "        assertThat(tags).containsExactly(\"a\", \"b\");",
            "    }",
            "}");

    @Test
    void truthLosesItsInOrder() {
        DexFix.Result r = one(DexFix.changeContainsExactly(join("\n", TRUTH), 10));
        assertEquals(
                join("\n", with(TRUTH, 10, "        assertThat(tags).containsExactly(\"a\", \"b\");")), r.source());
        assertEquals(
                "Truth: .inOrder() after containsExactly(...) at line 10 removed (without it the assertion ignores order)",
                r.description());
        JavaSources.parser().parse(r.source()).getResult().orElseThrow();

        List<String> joined = new ArrayList<>(TRUTH);
        joined.set(11, "                .containsExactlyElementsIn(List.of(\"a\", \"b\"));");
        joined.remove(12);
        for (int line = 11; line <= 13; line++) {
            assertEquals(
                    join("\n", joined),
                    one(DexFix.changeContainsExactly(join("\n", TRUTH), line)).source());
        }
        assertTrue(JavaSources.parser().parse(join("\n", joined)).isSuccessful());

        assertEquals(
                "line 14 of the source of TruthTest has no order-sensitive assertion to relax (AssertJ containsExactly,"
                        + " Hamcrest contains, Truth .inOrder()): Truth's containsExactly(...) without .inOrder() ignores order already",
                DexFix.changeContainsExactly(join("\n", TRUTH), 14).get(0).reason());
    }

    // ---------------------------------------------------------------- helpers

    private static DexFix.Result one(List<DexFix.Result> results) {
        assertEquals(1, results.size(), results.toString());
        assertTrue(results.get(0).applies(), results.get(0).toString());
        return results.get(0);
    }

    private static String join(String eol, List<String> lines) {
        return String.join(eol, lines) + eol;
    }

    /** The 1-based line of the only line containing {@code marker}. */
    /** The one line (from 1) of {@code lines} that holds {@code marker}. */
    static int lineOf(List<String> lines, String marker) {
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(marker)) {
                found.add(i + 1);
            }
        }
        assertEquals(1, found.size(), marker + " on lines " + found);
        return found.get(0);
    }

    private static List<String> with(List<String> lines, int line, String text) {
        List<String> copy = new ArrayList<>(lines);
        copy.set(line - 1, text);
        return copy;
    }

    private static List<String> without(List<String> lines, int line) {
        List<String> copy = new ArrayList<>(lines);
        copy.remove(line - 1);
        return copy;
    }

    private static List<String> inserted(List<String> lines, int afterLine, String text) {
        List<String> copy = new ArrayList<>(lines);
        copy.add(afterLine, text);
        return copy;
    }

    private void assertCompiles(String source, String relative) throws IOException {
        assertCompiles(source, relative, List.of());
    }

    private void assertCompiles(String source, String relative, List<Path> jars) throws IOException {
        String error = compileError(source, relative, jars);
        assertEquals(null, error, () -> "does not compile: " + error + "\n" + source);
    }

    private static final List<String> JSON = List.of(
            "package p;",
            "",
            "import static org.assertj.core.api.Assertions.assertThat;",
            "import static org.junit.jupiter.api.Assertions.assertEquals;",
            "",
            "import org.junit.jupiter.api.Test;",
            "",
            "class JsonTest {",
            "    static String toJson() {",
            "        return \"{\\\"b\\\":2,\\\"a\\\":1}\";",
            "    }",
            "",
            "    @Test",
            "    void serialized() {",
            "        String json = toJson();",
            "        assertEquals(\"{\\\"a\\\":1,\" + \"\\\"b\\\":2}\", json, \"the JSON\");",
            "        assertThat(json).isEqualTo(\"{\\\"a\\\":1,\\\"b\\\":2}\");",
            "        assertEquals(\"plain\", \"plain\");",
            "    }",
            "}");

    @Test
    void jsonAssertionComparesJsonLiteralsAsJsonWithTheLibraryAtHand() throws Exception {
        String source = join("\n", JSON);
        List<DexFix.Result> gson = DexFix.jsonAssertion(source, "serialized", List.of(DexFix.JsonLibrary.GSON));
        assertEquals(2, gson.size(), gson.toString());
        assertEquals(
                join(
                        "\n",
                        with(
                                JSON,
                                16,
                                "        assertEquals(com.google.gson.JsonParser.parseString(\"{\\\"a\\\":1,\" + "
                                        + "\"\\\"b\\\":2}\"), com.google.gson.JsonParser.parseString(json), \"the JSON\");")),
                gson.get(0).source());
        assertEquals(
                join(
                        "\n",
                        with(
                                JSON,
                                17,
                                "        assertThat(com.google.gson.JsonParser.parseString(json)).isEqualTo("
                                        + "com.google.gson.JsonParser.parseString(\"{\\\"a\\\":1,\\\"b\\\":2}\"));")),
                gson.get(1).source());
        assertTrue(
                gson.get(0).description().startsWith("JSONAssertion: the assertion at line 16"),
                gson.get(0).description());
        Optional<Path> gsonJar = m2Jar("com.google.code.gson", "gson");
        Optional<Path> assertj = m2Jar("org.assertj", "assertj-core");
        if (gsonJar.isPresent() && assertj.isPresent()) {
            DexFix.JsonLibrary flavour =
                    IdRepairer.jsonLibraries(List.of(gsonJar.get().toFile())).get(0);
            for (DexFix.Result r : DexFix.jsonAssertion(source, "serialized", List.of(flavour))) {
                assertCompiles(r.source(), "p/JsonTest.java", List.of(gsonJar.get(), assertj.get()));
            }
        }
        if (gsonJar.isPresent()) {
            // found by its classes in the jar, with its flavour from JsonParser itself
            assertEquals(
                    List.of(DexFix.JsonLibrary.GSON),
                    IdRepairer.jsonLibraries(List.of(gsonJar.get().toFile())));
        }
        assertTrue(DexFix.jsonAssertion(source, "serialized", List.of(DexFix.JsonLibrary.GSON_LEGACY))
                .get(0)
                .source()
                .contains("assertEquals(new com.google.gson.JsonParser().parse(\"{"));

        List<DexFix.Result> strict = DexFix.jsonAssertion(
                source, "serialized", List.of(DexFix.JsonLibrary.JSONASSERT, DexFix.JsonLibrary.GSON));
        assertEquals(
                join(
                        "\n",
                        with(
                                with(JSON, 14, "    void serialized() throws Exception {"),
                                16,
                                "        org.skyscreamer.jsonassert.JSONAssert.assertEquals(\"{\\\"a\\\":1,\" + \"\\\"b\\\":2}\", json, true);")),
                strict.get(0).source());
        assertTrue(
                strict.get(0).description().endsWith("serialized declares throws Exception"),
                strict.get(0).description());
        Optional<Path> jsonassert = m2Jar("org.skyscreamer", "jsonassert");
        Optional<Path> androidJson = m2Jar("com.vaadin.external.google", "android-json");
        if (jsonassert.isPresent() && androidJson.isPresent() && assertj.isPresent()) {
            for (DexFix.Result r : strict) {
                assertCompiles(
                        r.source(), "p/JsonTest.java", List.of(jsonassert.get(), androidJson.get(), assertj.get()));
            }
        }

        assertTrue(DexFix.jsonAssertion(source, "serialized", List.of())
                .get(0)
                .reason()
                .contains("no JSON library"));
        assertTrue(DexFix.jsonAssertion(source, "missing", List.of(DexFix.JsonLibrary.GSON))
                .get(0)
                .reason()
                .contains("has no method missing"));
        String none = join(
                "\n",
                with(
                        with(JSON, 16, "        assertEquals(\"x\", json);"),
                        17,
                        "        assertThat(json).isNotNull();"));
        assertTrue(DexFix.jsonAssertion(none, "serialized", List.of(DexFix.JsonLibrary.GSON))
                .get(0)
                .reason()
                .contains("compares no JSON text literal"));
    }

    private void compileIfPresent(String source, String relative, Optional<List<Path>> jars) throws IOException {
        assertTrue(JavaSources.parser().parse(source).isSuccessful(), source);
        if (jars.isPresent()) {
            assertCompiles(source, relative, jars.get());
        }
    }

    private Path compile(String source, String relative, List<Path> jars) throws IOException {
        Path root = Files.createTempDirectory(dir, "compile");
        String error = Javac.errors(root, source, relative, jars);
        assertEquals(null, error, () -> "does not compile: " + error + "\n" + source);
        return root.resolve("classes");
    }

    /** The compiler's errors, or null when the source compiled. */
    private String compileError(String source, String relative, List<Path> jars) throws IOException {
        return Javac.errors(Files.createTempDirectory(dir, "compile"), source, relative, jars);
    }

    /** The newest {@code artifact-<version>.jar} of the local Maven repository, if any. */
    private static Optional<Path> m2Jar(String group, String artifact) {
        Path dir = Paths.get(System.getProperty("user.home"), ".m2", "repository")
                .resolve(group.replace('.', '/'))
                .resolve(artifact);
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(dir)) {
            // the newest version (3.26.3 after 3.4.1: numbers compared as numbers)
            return versions.map(v -> v.resolve(artifact + "-" + v.getFileName() + ".jar"))
                    .filter(Files::isRegularFile)
                    .max(Comparator.comparing(
                            p -> p.getParent().getFileName().toString(), DexFixTest::compareVersions));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Maven-style versions, dot-separated numbers compared as numbers (a part that is not one, as text). */
    static int compareVersions(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = x[i].matches("\\d{1,9}") && y[i].matches("\\d{1,9}")
                    ? Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]))
                    : x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }

    @Test
    void theNewestJarOfTheLocalRepositoryIsTheOneCompiledAgainst() {
        assertTrue(compareVersions("3.26.3", "3.4.1") > 0);
        assertTrue(compareVersions("2.2", "2.2.1") < 0);
        assertEquals(0, compareVersions("1.3", "1.3"));
    }

    /**
     * The newest AssertJ of the local repository when it has the methods the rewrites name
     * ({@code containsExactlyInAnyOrderEntriesOf} came with 3.13): an old one another project
     * fetched (jinjava's 3.4.1) is not one to compile against.
     */
    private static Optional<List<Path>> assertjJars() {
        return m2Jar("org.assertj", "assertj-core")
                .filter(j -> compareVersions(j.getParent().getFileName().toString(), "3.13.0") >= 0)
                .map(List::of);
    }

    private static Optional<List<Path>> hamcrestJars() {
        Optional<Path> two = m2Jar("org.hamcrest", "hamcrest");
        if (two.isPresent()) {
            return Optional.of(List.of(two.get()));
        }
        Optional<Path> library = m2Jar("org.hamcrest", "hamcrest-library");
        Optional<Path> core = m2Jar("org.hamcrest", "hamcrest-core");
        return library.isPresent() && core.isPresent()
                ? Optional.of(List.of(library.get(), core.get()))
                : Optional.empty();
    }

    /** A JSON library that is the module itself: its classes a directory on the classpath (issue 33). */
    @Test
    void jsonLibrariesAreFoundByTheirClassesInDirectoriesToo(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path gson = dir.resolve("gson-classes");
        Path parser = gson.resolve("com/google/gson/JsonParser.class");
        java.nio.file.Files.createDirectories(parser.getParent());
        java.nio.file.Files.write(
                parser, "\u00ca\u00fe...parseString...".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Path legacy = dir.resolve("old-gson");
        Path oldParser = legacy.resolve("com/google/gson/JsonParser.class");
        java.nio.file.Files.createDirectories(oldParser.getParent());
        java.nio.file.Files.write(
                oldParser, "\u00ca\u00fe...parse...".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Path jsonassert = dir.resolve("jsonassert-classes");
        Path assertClass = jsonassert.resolve("org/skyscreamer/jsonassert/JSONAssert.class");
        java.nio.file.Files.createDirectories(assertClass.getParent());
        java.nio.file.Files.write(assertClass, new byte[] {1});
        Path none = dir.resolve("other");
        java.nio.file.Files.createDirectories(none);
        assertEquals(List.of(DexFix.JsonLibrary.GSON), IdRepairer.jsonLibraries(List.of(none.toFile(), gson.toFile())));
        assertEquals(List.of(DexFix.JsonLibrary.GSON_LEGACY), IdRepairer.jsonLibraries(List.of(legacy.toFile())));
        assertEquals(
                List.of(DexFix.JsonLibrary.JSONASSERT, DexFix.JsonLibrary.GSON),
                IdRepairer.jsonLibraries(List.of(gson.toFile(), jsonassert.toFile())));
        assertEquals(
                List.of(),
                IdRepairer.jsonLibraries(
                        List.of(none.toFile(), dir.resolve("missing.jar").toFile())));
    }

    @Test
    void aCallInAKotlinSourceIsSaidToBeOutOfTheRewritesReach() {
        assertEquals("a Kotlin source", IdRepairer.language("JoinMapperNewSyntaxTest.kt"));
        assertEquals("a Groovy source", IdRepairer.language("SpecTest.groovy"));
        assertEquals("not a Java source", IdRepairer.language("Generated"));
        assertEquals(null, IdRepairer.language("FragmentCollectorTest.java"));
        assertEquals(null, IdRepairer.language(null));
        // nothing to verify for a test whose rewrites are all in Kotlin: no time predicted for it
        com.google.gson.JsonObject kotlin = com.google.gson.JsonParser.parseString("{\"verify_seeds\": [1, 2],"
                        + " \"repairs\": [{\"strategy\": \"ChangeContainsExactly\", \"file\": \"JoinTest.kt\"}]}")
                .getAsJsonObject();
        assertEquals(0, IdRepairer.aloneRuns(kotlin));
        kotlin.getAsJsonArray("repairs")
                .add(com.google.gson.JsonParser.parseString(
                        "{\"strategy\": \"HashToLinkedHash\", \"file\": \"Provider.java\"}"));
        assertEquals(3, IdRepairer.aloneRuns(kotlin));
    }
}
