package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnownFlakyTest {
    private static final Report REPORT = Report.of(JsonParser.parseString("{\"flaky\":["
                    + "{\"test\":\"p.V#v\",\"kind\":\"victim\",\"reproduce\":\"mvn r1\"},"
                    + "{\"test\":\"p.B#b\",\"kind\":\"brittle\",\"reproduce\":\"mvn r2\"},"
                    + "{\"test\":\"p.N#n\",\"kind\":\"nod\",\"reproduce\":\"mvn r3\"}]}")
            .getAsJsonObject());

    @Test
    void listedTestsAndNodTestsDoNotCount(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("known.txt");
        Files.write(file, "# accepted for now\np.V#v   # ticket 12\n\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("p.B#b (brittle; reproduce: mvn r2)"), KnownFlaky.unlisted(REPORT, file.toFile()));
    }

    @Test
    void aMissingFileListsNothing(@TempDir Path dir) throws Exception {
        assertEquals(
                2, KnownFlaky.unlisted(REPORT, dir.resolve("none.txt").toFile()).size());
    }
}
