package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OrderFilesTest {
    @TempDir
    Path out;

    @Test
    void aMissingOrderFileIsMadeAgainFromTheHistoryAsItWasWritten() throws Exception {
        String round = OrderFiles.text(2, "round", 1, "targeted", 42, List.of("p.P#p", "p.V#v"));
        String baseline = OrderFiles.text(1, "baseline", null, "original", 42, List.of("p.V#v", "p.P#p"));
        assertEquals("# odrust experiment 2: round round 1 (targeted), seed=42\np.P#p\np.V#v\n", round);
        Files.createDirectories(out.resolve("orders"));
        Files.write(OrderFiles.file(out, 1), baseline.getBytes(StandardCharsets.UTF_8));
        JsonArray history = JsonParser.parseString("[{\"id\":1,\"kind\":\"baseline\",\"round\":null,"
                        + "\"strategy\":\"original\",\"order\":[\"p.V#v\",\"p.P#p\"]},"
                        + "{\"id\":2,\"kind\":\"round\",\"round\":1,\"strategy\":\"targeted\","
                        + "\"order\":[\"p.P#p\",\"p.V#v\"]}]")
                .getAsJsonArray();
        assertEquals(1, OrderFiles.restore(out, history, 42), "only the missing one");
        assertEquals(round, Files.readString(OrderFiles.file(out, 2)));
        assertEquals(baseline, Files.readString(OrderFiles.file(out, 1)));
        assertEquals(0, OrderFiles.restore(out, history, 42));
    }
}
