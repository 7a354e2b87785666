package io.github.odrust.maven.idtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShuffleTest {
    @TempDir
    Path dir;

    @Test
    void parsesOnlyRangesAndRefusesBadOnesWithAnExample() throws Exception {
        List<long[]> r = Shuffle.parseOnly(" 5, 3-7 ,12");
        assertEquals(3, r.size());
        assertEquals(5, r.get(0)[0]);
        assertEquals(5, r.get(0)[1]);
        assertEquals(3, r.get(1)[0]);
        assertEquals(7, r.get(1)[1]);
        assertTrue(Shuffle.parseOnly(null).isEmpty());
        for (String bad : new String[] {"0", "7-3", "x", "1-2-3", "-4"}) {
            String m = assertThrows(MojoFailureException.class, () -> Shuffle.parseOnly(bad))
                    .getMessage();
            assertTrue(m.contains("odrust.id.only") && m.contains("-Dodrust.id.only=5"), m);
        }
        assertEquals(
                "5,3-7",
                Shuffle.onlyText(JsonParser.parseString("[[5,5],[3,7]]").getAsJsonArray()));
    }

    @Test
    void filterTakesProjectOrAnyAndDottedPrefixes() throws Exception {
        Shuffle.Filter f = Shuffle.Filter.of("any", "com.acme.lib., org.x.Json");
        assertTrue(f.any);
        assertEquals(List.of("com.acme.lib.", "org.x.Json"), f.include);
        assertTrue(!Shuffle.Filter.of(null, null).any);
        String m = assertThrows(MojoFailureException.class, () -> Shuffle.Filter.of("all", null))
                .getMessage();
        assertTrue(m.contains("project") && m.contains("any"), m);
        m = assertThrows(MojoFailureException.class, () -> Shuffle.Filter.of(null, "com/acme"))
                .getMessage();
        assertTrue(m.contains("com/acme") && m.contains("-Dodrust.id.include="), m);
        m = assertThrows(MojoFailureException.class, () -> Shuffle.Filter.of(null, ";;"))
                .getMessage();
        assertTrue(m.contains("';;' is not a dotted class-name prefix"), m);
        m = assertThrows(MojoFailureException.class, () -> Shuffle.Filter.of(null, " , "))
                .getMessage();
        assertTrue(m.contains("names nothing"), m);
        assertEquals(List.of("a.Outer$Inner", "_x."), Shuffle.Filter.of(null, "a.Outer$Inner,_x.").include);
    }

    @Test
    void readsTheAgentsLogAndSkipsATornLine() throws Exception {
        Path log = dir.resolve("shuffle.jsonl");
        Files.write(
                log,
                ("{\"index\":3,\"api\":\"HashMap$KeySet.iterator\",\"at\":{\"class\":\"a.B\",\"method\":\"m\",\"file\":\"B.java\",\"line\":4}}\n"
                                + "{\"index\":7,\"api\":\"File.list\",\"at\":{\"class\":\"a.B\",\"method\":\"m\",\"file\":\"B.java\",\"line\":9}}\n"
                                + "{\"count\":12}\n{\"index\":")
                        .getBytes(StandardCharsets.UTF_8));
        Shuffle.Log l = Shuffle.read(log);
        assertEquals(12, l.count);
        assertEquals(2, l.calls.size());
        assertEquals(7, l.maxIndex);
        Shuffle.Log missing = Shuffle.read(dir.resolve("none.jsonl"));
        assertEquals(-1, missing.count, "no log: the JVM did not exit normally");
    }
}
