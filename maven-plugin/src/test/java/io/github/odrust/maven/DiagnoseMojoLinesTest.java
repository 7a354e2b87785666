package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnoseMojoLinesTest {
    private static JsonObject field(String name, String failing, String passing, boolean confirmed) {
        JsonObject f = new JsonObject();
        f.addProperty("field", name);
        f.addProperty("failing", failing);
        f.addProperty("passing", passing);
        f.addProperty("confirmed", confirmed);
        f.addProperty("restorable", true);
        f.add("differences", new JsonArray());
        return f;
    }

    @Test
    void fieldsOfClassesInitializedInOneOrderOnlyAreCountedBeyondTheFirstFew() {
        JsonObject v = new JsonObject();
        v.addProperty("status", "confirmed");
        v.addProperty("test", "p.VTest#v");
        v.addProperty("reason", "restoring p.S.x ...");
        JsonArray fields = new JsonArray();
        fields.add(field("p.S.x", "1", "0", true));
        JsonObject noisy = field("p.S.cfg", "{a}", "{b}", false);
        JsonArray paths = new JsonArray();
        paths.add("p.S.cfg.name");
        noisy.add("noise_paths", paths);
        fields.add(noisy);
        for (int i = 0; i < 5; i++) {
            fields.add(field("p.Lazy" + i + ".f", "(not initialized)", "0", false));
        }
        v.add("fields", fields);
        List<String> lines = DiagnoseMojo.lines(v);
        assertTrue(lines.get(0).startsWith("confirmed     p.VTest#v: restoring"), lines.get(0));
        assertEquals("  polluted p.S.x: 1 (failing order) vs 0 (passing)", lines.get(1));
        assertEquals("  differs  p.S.cfg: {a} (failing order) vs {b} (passing)", lines.get(2));
        assertEquals("      differs between two passing runs too at: p.S.cfg.name", lines.get(3));
        assertEquals(
                DiagnoseMojo.ONE_SIDED_SHOWN,
                lines.stream().filter(l -> l.contains("(not initialized)")).count());
        assertEquals(
                "  and 2 more fields of classes initialized in one order only (listed in diagnose.json)",
                lines.get(lines.size() - 1));
    }
}
