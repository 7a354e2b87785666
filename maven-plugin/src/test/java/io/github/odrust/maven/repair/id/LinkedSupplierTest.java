package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HashToLinkedHash where the map or set comes from a collector or a constructor reference. */
class LinkedSupplierTest {
    @TempDir
    Path dir;

    private static final List<String> STREAMS = List.of(
            "package com.acme;",
            "",
            "import static java.util.stream.Collectors.toSet;",
            "",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "import java.util.Set;",
            "import java.util.function.Function;",
            "import java.util.stream.Collectors;",
            "",
            "public class StreamsTest {",
            "    static final List<String> WORDS = List.of(\"pear\", \"fig\", \"apple\", \"kiwi\", \"banana\", \"cherry\","
                    + " \"date\", \"grape\", \"lemon\", \"mango\", \"melon\", \"olive\");",
            "",
            "    public String set() {",
            "        Set<String> s = WORDS.stream().collect(Collectors.toSet());",
            "        return String.join(\",\", s);",
            "    }",
            "",
            "    public String imported() {",
            "        Set<String> s = WORDS.stream()",
            "                .collect( // the line the JVM gives the set toSet() makes",
            "                        toSet());",
            "        return String.join(\",\", s);",
            "    }",
            "",
            "    public String map() {",
            "        Map<String, Integer> m = WORDS.stream()",
            "                .collect(Collectors.toMap(Function.identity(), String::length));",
            "        return m.toString();",
            "    }",
            "",
            "    public String merged() {",
            "        Map<Integer, String> m = WORDS.stream().collect(Collectors.toMap(String::length, w -> w, (a, b) ->"
                    + " a + \"+\" + b));",
            "        return m.toString();",
            "    }",
            "",
            "    public String grouped() {",
            "        Map<Integer, List<String>> m = WORDS.stream().collect(Collectors.groupingBy(String::length));",
            "        return m.toString();",
            "    }",
            "",
            "    public String groupedSets() {",
            "        Map<Character, Set<String>> m = WORDS.stream().collect(Collectors.groupingBy(w -> w.charAt(0),"
                    + " Collectors.toSet()));",
            "        return m.toString();",
            "    }",
            "",
            "    public String reference() {",
            "        Map<String, Integer> m = WORDS.stream().collect(HashMap::new, (h, w) -> h.put(w, w.length()),"
                    + " Map::putAll);",
            "        return m.toString();",
            "    }",
            "",
            "    public String duplicate() {",
            "        try {",
            "            WORDS.stream().collect(Collectors.toMap(String::length, w -> w));",
            "            return \"none\";",
            "        } catch (IllegalStateException e) {",
            "            return e.getMessage();",
            "        }",
            "    }",
            "",
            "    public String list() {",
            "        return WORDS.stream().collect(Collectors.toList()).toString();",
            "    }",
            "}");

    private static int lineOf(String marker) {
        return DexFixTest.lineOf(STREAMS, marker);
    }

    /** The one candidate for {@code type} at the line with {@code marker}. */
    private static DexFix.Result one(String marker, String type) {
        List<DexFix.Result> r = DexFix.hashToLinkedHash(String.join("\n", STREAMS) + "\n", lineOf(marker), type);
        assertEquals(1, r.size(), r.toString());
        assertTrue(r.get(0).applies(), r.get(0).toString());
        return r.get(0);
    }

    /** The patched source's line that held {@code marker}, {@code below} lines under it (imports added or removed above). */
    private static String patched(DexFix.Result r, String marker, int below) {
        String[] lines = r.source().split("\n", -1);
        int shift = lines.length - (STREAMS.size() + 1);
        return lines[lineOf(marker) - 1 + below + shift];
    }

    private String call(DexFix.Result r, String method) throws Exception {
        return (String) Javac.call(dir, r.source(), "com/acme/StreamsTest.java", "com.acme.StreamsTest", method);
    }

    /** The words as {@code method} of the original class iterates them, and as insertion order would. */
    private static final String INSERTION = "pear,fig,apple,kiwi,banana,cherry,date,grape,lemon,mango,melon,olive";

    @Test
    void toSetCollectsIntoALinkedHashSetThatIteratesInTheStreamsOrder() throws Exception {
        String original = (String) Javac.call(
                dir, String.join("\n", STREAMS) + "\n", "com/acme/StreamsTest.java", "com.acme.StreamsTest", "set");
        assertFalse(original.equals(INSERTION), "the HashSet's own order differs, or the test shows nothing");
        DexFix.Result r = one("Set<String> s = WORDS.stream().collect(Collectors.toSet())", "HashSet");
        assertEquals(
                "        Set<String> s = WORDS.stream().collect(Collectors.toCollection(LinkedHashSet::new));",
                patched(r, "collect(Collectors.toSet())", 0));
        assertTrue(r.source().contains("import java.util.LinkedHashSet;\nimport java.util.List;\n"), r.source());
        assertTrue(
                r.description()
                        .startsWith("Collectors.toSet() at line " + lineOf("collect(Collectors.toSet())")
                                + " becomes toCollection(LinkedHashSet::new), whose set iterates in insertion order"),
                r.description());
        assertEquals(INSERTION, call(r, "set"));
    }

    @Test
    void aCollectorOnTheLineAfterItsCollectCountsAsOnTheCollectsLine() throws Exception {
        // the JVM gives what toSet() makes the line of `.collect(`, where the agent saw it
        DexFix.Result r = one(".collect( //", "HashSet");
        // toSet is imported alone: toCollection is written with its class, which the file imports
        assertEquals(
                "                        Collectors.toCollection(LinkedHashSet::new));", patched(r, ".collect( //", 1));
        assertEquals(INSERTION, call(r, "imported"));
    }

    @Test
    void toMapAndGroupingByGetALinkedHashMapSupplier() throws Exception {
        DexFix.Result map = one(".collect(Collectors.toMap(Function.identity()", "HashMap");
        assertEquals(
                "                .collect(Collectors.toMap(Function.identity(), String::length, (u, v) -> { throw new"
                        + " IllegalStateException(\"Duplicate key (attempted merging values \" + u + \" and \" + v"
                        + " + \")\"); }, LinkedHashMap::new));",
                patched(map, ".collect(Collectors.toMap(Function.identity()", 0));
        assertTrue(map.description().contains("a duplicate key still throws IllegalStateException"));
        assertTrue(map.source().contains("import java.util.HashMap;\nimport java.util.LinkedHashMap;\n"));
        assertEquals(
                "{pear=4, fig=3, apple=5, kiwi=4, banana=6, cherry=6, date=4, grape=5, lemon=5, mango=5, melon=5,"
                        + " olive=5}",
                call(map, "map"));

        DexFix.Result merged = one("(a, b) -> a + \"+\" + b", "HashMap");
        assertTrue(patched(merged, "(a, b) -> a", 0).endsWith("(a, b) -> a + \"+\" + b, LinkedHashMap::new));"));
        assertEquals(
                "{4=pear+kiwi+date, 3=fig, 5=apple+grape+lemon+mango+melon+olive, 6=banana+cherry}",
                call(merged, "merged"));

        DexFix.Result grouped = one("Collectors.groupingBy(String::length)", "HashMap");
        assertTrue(patched(grouped, "groupingBy(String::length)", 0)
                .contains("Collectors.groupingBy(String::length, LinkedHashMap::new, Collectors.toList())"));
        assertEquals(
                "{4=[pear, kiwi, date], 3=[fig], 5=[apple, grape, lemon, mango, melon, olive], 6=[banana, cherry]}",
                call(grouped, "grouped"));
    }

    @Test
    void aGroupingsDownstreamSetAndItsMapAreEachTheirOwnCandidate() throws Exception {
        DexFix.Result map = one("w -> w.charAt(0)", "HashMap");
        assertTrue(patched(map, "w -> w.charAt(0)", 0)
                .contains("groupingBy(w -> w.charAt(0), LinkedHashMap::new, Collectors.toSet())"));
        DexFix.Result sets = one("w -> w.charAt(0)", "HashSet");
        assertTrue(patched(sets, "w -> w.charAt(0)", 0)
                .contains("groupingBy(w -> w.charAt(0), Collectors.toCollection(LinkedHashSet::new))"));
        call(map, "groupedSets");
        call(sets, "groupedSets");
    }

    @Test
    void aConstructorReferenceBecomesTheLinkedOnesAndTheUnusedImportGoes() throws Exception {
        DexFix.Result r = one("collect(HashMap::new", "HashMap");
        assertTrue(patched(r, "collect(HashMap::new", 0).contains(".collect(LinkedHashMap::new, (h, w)"));
        assertTrue(
                r.description()
                        .startsWith("HashMap::new at line " + lineOf("collect(HashMap::new")
                                + " becomes LinkedHashMap::new"),
                r.description());
        // HashMap is named nowhere else: its import goes (checkstyle's UnusedImports)
        assertFalse(r.source().contains("import java.util.HashMap;"), r.source());
        assertTrue(call(r, "reference").startsWith("{pear=4, fig=3, apple=5"));
    }

    @Test
    void aDuplicateKeyStillThrowsAndOtherCollectorsAreNotRewritten() throws Exception {
        DexFix.Result r = one("toMap(String::length, w -> w))", "HashMap");
        assertEquals("Duplicate key (attempted merging values pear and kiwi)", call(r, "duplicate"));
        List<DexFix.Result> list =
                DexFix.hashToLinkedHash(String.join("\n", STREAMS) + "\n", lineOf("Collectors.toList()"), "HashMap");
        assertFalse(list.get(0).applies());
        assertEquals(
                "line " + lineOf("Collectors.toList()") + " of StreamsTest.java has no `new HashMap` expression,"
                        + " `HashMap::new` or collector of java.util.stream.Collectors that makes a HashMap",
                list.get(0).reason());
    }

    @Test
    void withOnlyTheCollectorImportedStaticallyTheOtherIsWrittenQualified() throws Exception {
        String source = String.join(
                "\n",
                "package com.acme;",
                "",
                "import static java.util.stream.Collectors.toSet;",
                "",
                "import java.util.List;",
                "",
                "public class OnlyTest {",
                "    public String only() {",
                "        return String.join(\",\", List.of(\"pear\", \"fig\", \"apple\", \"kiwi\").stream().collect(toSet()));",
                "    }",
                "}",
                "");
        List<DexFix.Result> r = DexFix.hashToLinkedHash(source, 9, "HashSet");
        assertTrue(r.get(0).applies(), r.toString());
        assertTrue(
                r.get(0).source().contains(".collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new)));"),
                r.get(0).source());
        assertEquals(
                "pear,fig,apple,kiwi",
                Javac.call(dir, r.get(0).source(), "com/acme/OnlyTest.java", "com.acme.OnlyTest", "only"));
    }

    @Test
    void underAnOnDemandStaticImportTheOtherIsUnqualifiedUnlessTheClassHasAMethodOfItsName() throws Exception {
        String source = String.join(
                "\n",
                "package com.acme;",
                "",
                "import static java.util.stream.Collectors.*;",
                "",
                "import java.util.List;",
                "",
                "public class DemandTest {",
                "    public String grouped() {",
                "        return List.of(\"pear\", \"fig\", \"kiwi\").stream().collect(groupingBy(String::length)).toString();",
                "    }",
                "",
                "    public String set() {",
                "        return String.join(\",\", List.of(\"pear\", \"fig\", \"kiwi\").stream().collect(toSet()));",
                "    }",
                "",
                "    static String toList() {",
                "        return \"not a collector\";",
                "    }",
                "}",
                "");
        DexFix.Result grouped = DexFix.hashToLinkedHash(source, 9, "HashMap").get(0);
        // the class's own toList() would be taken for the downstream: it is written with its class
        assertTrue(
                grouped.source()
                        .contains("collect(groupingBy(String::length, LinkedHashMap::new,"
                                + " java.util.stream.Collectors.toList()))"),
                grouped.source());
        assertEquals(
                "{4=[pear, kiwi], 3=[fig]}",
                Javac.call(dir, grouped.source(), "com/acme/DemandTest.java", "com.acme.DemandTest", "grouped"));
        DexFix.Result set = DexFix.hashToLinkedHash(source, 13, "HashSet").get(0);
        assertTrue(set.source().contains(".collect(toCollection(LinkedHashSet::new)));"), set.source());
        assertEquals(
                "pear,fig,kiwi",
                Javac.call(dir, set.source(), "com/acme/DemandTest.java", "com.acme.DemandTest", "set"));
    }

    @Test
    void aCollectorOfAnotherClassIsNotCollectors() {
        List<String> own = new ArrayList<>(List.of(
                "package com.acme;",
                "",
                "import java.util.List;",
                "import java.util.Set;",
                "",
                "public class OwnTest {",
                "    Set<String> s = List.of(\"a\").stream().collect(Collectors.toSet());",
                "}",
                "",
                "class Collectors {",
                "    static <T> java.util.stream.Collector<T, ?, Set<T>> toSet() {",
                "        return java.util.stream.Collectors.toSet();",
                "    }",
                "}"));
        List<DexFix.Result> r = DexFix.hashToLinkedHash(String.join("\n", own) + "\n", 7, "HashSet");
        assertFalse(r.get(0).applies());
        assertTrue(
                r.get(0).reason().endsWith("toSet(...) at line 7 is not java.util.stream.Collectors's"),
                r.get(0).reason());
    }
}
