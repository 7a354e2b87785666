package io.github.odrust.maven.repair;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** repair.json: repairing one test keeps the other tests' entries of an earlier run of this version. */
class RepairFileTest {
    @TempDir
    Path dir;

    private static RepairFile.Entry entry(String test, String status) {
        RepairFile.Entry e = new RepairFile.Entry(test, "victim");
        e.status = status;
        return e;
    }

    @Test
    void keepsEarlierEntriesOfThisModuleAndVersionAndReplacesTheTestRepairedAgain() throws Exception {
        Path json = dir.resolve("repair.json");
        RepairFile first = RepairFile.continuing(json, "g:a", "0.1.0");
        first.put(entry("p.B#b", "patched"));
        first.put(entry("p.A#a", "unfinished"));
        first.complete = true;
        first.write(json);
        String text = new String(Files.readAllBytes(json), StandardCharsets.UTF_8);
        assertTrue(text.contains("\"schema_version\": 2") && text.contains("\"odrust_version\": \"0.1.0\""), text);
        assertTrue(!text.contains("\"ran\""), "the run's own list is not written: " + text);

        RepairFile again = RepairFile.continuing(json, "g:a", "0.1.0");
        RepairFile.Entry diagnosed = entry("p.A#a", "patched");
        diagnosed.pollutedState = com.google.gson.JsonParser.parseString("{\"status\":\"confirmed\"}");
        again.put(diagnosed);
        again.write(json);
        // an entry with a diagnosis and one without (null) are read back
        again = RepairFile.continuing(json, "g:a", "0.1.0");
        assertEquals(
                "confirmed",
                again.repairs
                        .get(0)
                        .pollutedState
                        .getAsJsonObject()
                        .get("status")
                        .getAsString());
        again.put(entry("p.A#a", "patched"));
        assertEquals(
                List.of("p.A#a:patched", "p.B#b:patched"),
                again.repairs.stream().map(e -> e.test + ":" + e.status).collect(Collectors.toList()));
        assertEquals(1, again.ran.size());

        // A cause's entry replaces the earlier entries of each of its tests.
        RepairFile.Entry cause = entry("p.A#a", "patched");
        cause.members = List.of("p.A#a", "p.B#b");
        cause.cause = 1;
        again.put(cause);
        assertEquals(
                List.of("p.A#a:patched"),
                again.repairs.stream().map(e -> e.test + ":" + e.status).collect(Collectors.toList()));
        again.put(entry("p.B#b", "rejected"));
        assertEquals(
                List.of("p.B#b:rejected"),
                again.repairs.stream().map(e -> e.test + ":" + e.status).collect(Collectors.toList()),
                "a test repaired alone again replaces the cause's entry it was in");

        // A file this run cannot continue is kept aside, and the run says so.
        assertEquals(null, RepairFile.continuing(json, "g:a", "0.1.0").setAside);
        RepairFile other = RepairFile.continuing(json, "g:a", "0.2.0");
        assertTrue(other.repairs.isEmpty(), "another version starts a new file");
        assertTrue(
                other.setAside.contains("was written by odrust 0.1.0")
                        && other.setAside.contains("kept as repair.json.previous"),
                other.setAside);
        assertTrue(Files.exists(dir.resolve("repair.json.previous")) && !Files.exists(json));
        first.write(json);
        RepairFile module = RepairFile.continuing(json, "g:other", "0.1.0");
        assertTrue(module.repairs.isEmpty() && module.setAside.contains("is of the module g:a"), module.setAside);
        Files.write(json, "{broken".getBytes(StandardCharsets.UTF_8));
        RepairFile broken = RepairFile.continuing(json, "g:a", "0.1.0");
        assertTrue(broken.repairs.isEmpty() && broken.setAside.contains("cannot be read"), broken.setAside);
        assertEquals("{broken", Files.readString(dir.resolve("repair.json.previous")));
    }

    @Test
    void patchNamesKeepTheIdReadableAndSafe() {
        assertEquals("com.acme.CartTest#isEmpty.patch", RepairFile.patchName("com.acme.CartTest#isEmpty"));
        assertEquals("p.C#m_String__int_.patch", RepairFile.patchName("p.C#m(String, int)"));
    }
}
