package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentLogTest {
    private static JsonObject record(int id) {
        JsonObject o = new JsonObject();
        o.addProperty("id", id);
        o.addProperty("kind", "round");
        return o;
    }

    @Test
    void appendedRecordsSurviveAReload(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("detect/experiments.jsonl");
        ExperimentLog log = ExperimentLog.create(file);
        log.append(record(1));
        log.append(record(2));
        ExperimentLog again = ExperimentLog.load(file);
        assertEquals(2, again.size());
        assertEquals(2, again.history().get(1).getAsJsonObject().get("id").getAsInt());
    }

    @Test
    void regressionATornLastLineFromAKilledRunIsDroppedAndAppendingGoesOn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog log = ExperimentLog.create(file);
        log.append(record(1));
        Files.write(file, "{\"id\":2,\"kind\":\"ro".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        ExperimentLog resumed = ExperimentLog.load(file);
        assertEquals(1, resumed.size());
        resumed.append(record(2));
        assertEquals(2, ExperimentLog.load(file).size());
        assertEquals(2, Files.readAllLines(file).size());
    }

    @Test
    void aDamagedLineBeforeTheLastIsRefusedNamingTheFileTheLineAndTheFix(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog log = ExperimentLog.create(file);
        log.append(record(1));
        Files.write(file, "garbage here\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
        log.append(record(2));
        log.append(record(3));
        byte[] before = Files.readAllBytes(file);
        ExperimentLog.DamagedException e =
                assertThrows(ExperimentLog.DamagedException.class, () -> ExperimentLog.load(file));
        assertTrue(
                e.getMessage().contains(file + " is damaged: line 2 is not an experiment record (`garbage here`)"),
                e.getMessage());
        assertTrue(e.getMessage().contains("2 more lines follow it"), e.getMessage());
        assertTrue(e.getMessage().contains("Delete or repair that line"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file), "a refused history is left as it was");
        // once the line is gone, every record around it is kept
        Files.write(
                file,
                new String(before, StandardCharsets.UTF_8)
                        .replace("garbage here\n", "")
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(3, ExperimentLog.load(file).size());
    }

    @Test
    void creatingANewLogDiscardsAnOldOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("experiments.jsonl");
        ExperimentLog.create(file).append(record(1));
        assertEquals(0, ExperimentLog.create(file).size());
        assertEquals(0, ExperimentLog.load(file).size());
    }
}
