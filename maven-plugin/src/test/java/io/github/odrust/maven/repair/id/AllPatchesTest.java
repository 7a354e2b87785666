package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class AllPatchesTest {
    private static final String BEFORE = String.join(
            "\n",
            "package a;",
            "",
            "import java.util.HashMap;",
            "import java.util.List;",
            "import java.util.Map;",
            "",
            "class Index {",
            "    Map<String, String> byName = new HashMap<>();",
            "    int a;",
            "    int b;",
            "    int c;",
            "    int d;",
            "    int e;",
            "    int f;",
            "    int g;",
            "    Map<String, String> byAuthor = new HashMap<>();",
            "}",
            "");

    /** BEFORE with one of its two maps made a LinkedHashMap, as HashToLinkedHash writes it: the other keeps HashMap used. */
    private static String linked(String field) {
        return BEFORE.replace(
                        "import java.util.HashMap;\n", "import java.util.HashMap;\nimport java.util.LinkedHashMap;\n")
                .replace(field + " = new HashMap<>()", field + " = new LinkedHashMap<>()");
    }

    @Test
    void twoRewritesOfOneFileMadeOnceLeaveNoImportTheyMadeUnused() {
        String merged = AllPatches.merged(BEFORE, List.of(linked("byName"), linked("byAuthor")));
        // the import both add is added once
        assertEquals(1, merged.split("import java.util.LinkedHashMap;", -1).length - 1, merged);
        AllPatches.Cleaned clean = AllPatches.withoutNowUnusedImports(BEFORE, merged);
        assertEquals(merged.replace("import java.util.HashMap;\n", ""), clean.text());
        assertEquals(List.of("java.util.HashMap"), clean.removed());
        // one rewrite alone keeps HashMap in use: nothing goes
        AllPatches.Cleaned one = AllPatches.withoutNowUnusedImports(BEFORE, linked("byName"));
        assertEquals(linked("byName"), one.text());
        assertEquals(List.of(), one.removed());
    }

    @Test
    void importsUnusedBeforeAndNamesStillWrittenAnywhereAreKept() {
        String merged = AllPatches.merged(BEFORE, List.of(linked("byName"), linked("byAuthor")));
        // List was unused before the patches: not theirs to remove
        assertEquals(
                true, AllPatches.withoutNowUnusedImports(BEFORE, merged).text().contains("import java.util.List;"));
        // a comment naming HashMap keeps its import (javadoc's {@link HashMap} needs it)
        String commented = merged.replace("    int a;", "    /** not a {@link HashMap} */\n    int a;");
        assertEquals(
                commented, AllPatches.withoutNowUnusedImports(BEFORE, commented).text());
        // a longer name is not the name
        String longer = merged.replace("    int a;", "    HashMapper a;");
        assertEquals(
                longer.replace("import java.util.HashMap;\n", ""),
                AllPatches.withoutNowUnusedImports(BEFORE, longer).text());
    }

    @Test
    void crlfLinesStayCrlfAndStaticImportsAreNotTouched() {
        String before = BEFORE.replace("import java.util.List;\n", "import static java.util.Map.entry;\n")
                .replace("\n", "\r\n");
        String a = before.replace(
                "import java.util.HashMap;\r\n", "import java.util.HashMap;\r\nimport java.util.LinkedHashMap;\r\n");
        String merged = AllPatches.merged(
                before,
                List.of(
                        a.replace("byName = new HashMap<>()", "byName = new LinkedHashMap<>()"),
                        a.replace("byAuthor = new HashMap<>()", "byAuthor = new LinkedHashMap<>()")));
        String clean = AllPatches.withoutNowUnusedImports(before, merged).text();
        assertEquals(merged.replace("import java.util.HashMap;\r\n", ""), clean);
        assertEquals(clean.split("\n", -1).length - 1, clean.split("\r\n", -1).length - 1, "every line keeps its CRLF");
        assertEquals(true, clean.contains("import static java.util.Map.entry;\r\n"));
    }

    @Test
    void twoPatchesOfTheSameLinesDoNotMerge() {
        assertNull(AllPatches.merged(
                BEFORE, List.of(BEFORE.replace("int a;", "long a;"), BEFORE.replace("int a;", "short a;"))));
    }
}
