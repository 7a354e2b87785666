package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IdRepairBatchesTest {
    private static final String TEST = "class T {\n  a(1);\n  keep;\n  b(2);\n  keep;\n  c(3);\n}\n";
    private static final Path T = Path.of("T.java");
    private static final Path MAIN = Path.of("Main.java");

    /** A patch: the files it changes, before and after. */
    private static Map<Path, String[]> patch(Object... fileAndAfter) {
        Map<Path, String[]> m = new LinkedHashMap<>();
        for (int i = 0; i < fileAndAfter.length; i += 2) {
            Path f = (Path) fileAndAfter[i];
            m.put(f, new String[] {f == T ? TEST : "class Main {\n  x;\n}\n", (String) fileAndAfter[i + 1]});
        }
        return m;
    }

    @Test
    void patchesOfOtherLinesOfOneFileRunTogetherAndThoseOfTheSameLinesApart() {
        Map<Path, String[]> a = patch(T, TEST.replace("a(1)", "a(9)"));
        Map<Path, String[]> b = patch(T, TEST.replace("b(2)", "b(9)"));
        Map<Path, String[]> sameLineAsA = patch(T, TEST.replace("a(1)", "a(7)"));
        Map<Path, String[]> main = patch(MAIN, "class Main {\n  y;\n}\n", T, TEST.replace("c(3)", "c(9)"));
        Map<Path, String[]> nextToB = patch(T, TEST.replace("b(2);\n  keep", "b(2);\n  kept"));
        List<List<Map<Path, String[]>>> batches = IdRepairer.batches(List.of(a, b, sameLineAsA, main, nextToB), p -> p);
        assertEquals(List.of(List.of(a, b, main), List.of(sameLineAsA, nextToB)), batches);
    }

    @Test
    void onePatchIsOneRun() {
        Map<Path, String[]> a = patch(T, TEST.replace("a(1)", "a(9)"));
        assertEquals(List.of(List.of(a)), IdRepairer.batches(List.of(a), p -> p));
        assertEquals(List.of(), IdRepairer.batches(List.<Map<Path, String[]>>of(), p -> p));
    }
}
