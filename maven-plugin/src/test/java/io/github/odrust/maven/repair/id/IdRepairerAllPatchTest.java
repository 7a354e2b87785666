package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** repair/id/all.patch: written from the offered patches, never left from an earlier run, and why not when not. */
class IdRepairerAllPatchTest {
    private static final class Recording extends SystemStreamLog {
        final List<String> lines = new ArrayList<>();

        @Override
        public void info(CharSequence content) {
            lines.add(content.toString());
        }

        @Override
        public void warn(CharSequence content) {
            lines.add(content.toString());
        }
    }

    private static final String BEFORE = "package p;\n\nimport java.util.HashMap;\nimport java.util.Map;\n\n"
            + "class Index {\n    Map<String, Integer> byName = new HashMap<>();\n\n    int a;\n\n"
            + "    Map<String, Integer> byAuthor = new HashMap<>();\n}\n";

    private static String linked(String field) {
        return BEFORE.replace(
                        "import java.util.HashMap;\n", "import java.util.HashMap;\nimport java.util.LinkedHashMap;\n")
                .replace(field + " = new HashMap<>()", field + " = new LinkedHashMap<>()");
    }

    private static IdRepairer repairer(Path root, Recording log) {
        IdRepairer.Settings settings = new IdRepairer.Settings();
        settings.root = root;
        return new IdRepairer(null, null, null, root.resolve("target/odrust"), settings, log);
    }

    private static final String INDEX = "src/main/java/p/Index.java";

    /** all.patch of two patches of {@link #INDEX} (BEFORE made each of {@code afters}). */
    private static IdRepairer allOf(Path root, Recording log, String... afters) throws Exception {
        Path file = root.resolve(INDEX);
        Files.createDirectories(file.getParent());
        Files.writeString(file, BEFORE);
        IdRepairer r = repairer(root, log);
        for (String after : afters) {
            r.offered.add(List.of(new IdRepairer.FileChange(file, BEFORE, after)));
        }
        r.writeAll();
        return r;
    }

    @Test
    void anEarlierRunsAllPatchIsRemovedWhenThisRunOffersNone(@TempDir Path root) throws Exception {
        Path stale = root.resolve("target/odrust/repair/id/all.patch");
        Files.createDirectories(stale.getParent());
        Files.writeString(stale, "--- a/x\n+++ b/x\n");
        JsonObject report = JsonParser.parseString("{'outcome':{'tests':[{'test':'p.A#a','status':'pass'}]}}")
                .getAsJsonObject();
        assertEquals(List.of(), repairer(root, new Recording()).run(report));
        assertFalse(Files.exists(stale), "an earlier run's all.patch is not this run's patches");
    }

    @Test
    void twoPatchesOfOneFileBecomeOneThatAppliesAndDropsTheImportTheyLeaveUnused(@TempDir Path root) throws Exception {
        Recording log = new Recording();
        IdRepairer r = allOf(root, log, linked("byName"), linked("byAuthor"));
        Path file = root.resolve(INDEX);
        Path all = root.resolve("target/odrust/repair/id/all.patch");
        String patch = Files.readString(all, StandardCharsets.UTF_8);
        assertTrue(patch.contains("--- a/src/main/java/p/Index.java"), patch);
        assertTrue(patch.contains("-import java.util.HashMap;"), patch);
        assertEquals(1, patch.split("\\+import java.util.LinkedHashMap;", -1).length - 1, patch);
        assertEquals(2, r.all.get("patches").getAsInt());
        assertEquals(
                "java.util.HashMap (Index.java)",
                r.all.getAsJsonArray("removed_imports").get(0).getAsString());
        assertTrue(r.all.has("apply"), r.all.toString());
        assertEquals(BEFORE, Files.readString(file), "not asked to apply: the source is not touched");
        String said = log.lines.stream().collect(Collectors.joining("\n"));
        assertTrue(said.contains("all 2 patches as one") && said.contains("java.util.HashMap (Index.java)"), said);
    }

    @Test
    void twoPatchesOfTheSameLinesWriteNoAllPatchAndSayWhy(@TempDir Path root) throws Exception {
        Recording log = new Recording();
        IdRepairer r = allOf(root, log, BEFORE.replace("int a;", "long a;"), BEFORE.replace("int a;", "short a;"));
        assertFalse(Files.exists(root.resolve("target/odrust/repair/id/all.patch")));
        assertNull(r.all);
        String said = String.join("\n", log.lines);
        assertTrue(
                said.contains("no all.patch: two patches change the same lines of src/main/java/p/Index.java")
                        && said.contains("apply the patches one at a time"),
                said);
    }
}
