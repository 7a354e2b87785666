package io.github.odrust.maven.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiagnoseFileTest {
    @TempDir
    Path dir;

    @Test
    void aFileThisRunCannotContinueIsKeptAsideAndSaid() throws Exception {
        Path file = dir.resolve("diagnose.json");
        List<String> said = new ArrayList<>();
        JsonObject none = DiagnoseFile.read(file, "g:a", "0.1.0", said::add);
        assertEquals(0, none.getAsJsonArray("entries").size());
        assertTrue(said.isEmpty(), "no file, nothing to say: " + said);

        Files.writeString(
                file, "{\"schema_version\":1,\"odrust_version\":\"0.1.0\",\"module\":\"g:a\",\"entries\":[{}]}");
        assertEquals(
                1,
                DiagnoseFile.read(file, "g:a", "0.1.0", said::add)
                        .getAsJsonArray("entries")
                        .size());
        assertTrue(said.isEmpty(), said.toString());

        JsonObject other = DiagnoseFile.read(file, "g:a", "0.2.0", said::add);
        assertEquals(0, other.getAsJsonArray("entries").size());
        assertTrue(
                said.get(0).contains("another odrust version") && said.get(0).contains("diagnose.json.previous"),
                said.toString());
        assertTrue(Files.exists(dir.resolve("diagnose.json.previous")) && !Files.exists(file));

        Files.writeString(file, "{torn");
        DiagnoseFile.read(file, "g:a", "0.1.0", said::add);
        assertTrue(said.get(1).contains("cannot be read"), said.toString());
        assertEquals("{torn", Files.readString(dir.resolve("diagnose.json.previous")));
    }
}
