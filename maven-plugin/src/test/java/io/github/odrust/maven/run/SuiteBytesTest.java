package io.github.odrust.maven.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bytes of the discovered suite, pinned: {@code suite.json} as written, and the wire form
 * {@code run.json}'s {@code suite_sha256} is taken over (DetectDirectory). Whatever type holds the
 * suite in the plugin, both stay these bytes, or a resumed detect run refuses its own history.
 */
class SuiteBytesTest {
    /** A suite as Discovery builds it: the agent's class events without their {@code event} key. */
    private static JsonObject discovered() {
        return JsonParser.parseString("{\"schema_version\":1,\"module\":\"g:a\",\"classes\":["
                        + "{\"class\":\"p.A\",\"framework\":\"junit4\",\"reorderable\":true,"
                        + "\"tests\":[\"p.A#x\",\"p.A#y\"],\"dynamic\":[],\"note\":null},"
                        + "{\"class\":\"p.B\",\"framework\":\"junit5\",\"reorderable\":false,"
                        + "\"tests\":[\"p.B#z\"],\"dynamic\":[\"p.B#z\"],"
                        + "\"note\":\"@TestMethodOrder(X): tests of this class run in its own fixed order\"}]}")
                .getAsJsonObject();
    }

    @Test
    void suiteJsonIsIndentedWithoutNullsAndOriginalTxtListsTheTests(@TempDir Path out) throws Exception {
        Discovery.writeSuite(DiscoveredSuite.of(discovered()), out);
        assertEquals(
                "{\n"
                        + "  \"schema_version\": 1,\n"
                        + "  \"module\": \"g:a\",\n"
                        + "  \"classes\": [\n"
                        + "    {\n"
                        + "      \"class\": \"p.A\",\n"
                        + "      \"framework\": \"junit4\",\n"
                        + "      \"reorderable\": true,\n"
                        + "      \"tests\": [\n"
                        + "        \"p.A#x\",\n"
                        + "        \"p.A#y\"\n"
                        + "      ],\n"
                        + "      \"dynamic\": []\n"
                        + "    },\n"
                        + "    {\n"
                        + "      \"class\": \"p.B\",\n"
                        + "      \"framework\": \"junit5\",\n"
                        + "      \"reorderable\": false,\n"
                        + "      \"tests\": [\n"
                        + "        \"p.B#z\"\n"
                        + "      ],\n"
                        + "      \"dynamic\": [\n"
                        + "        \"p.B#z\"\n"
                        + "      ],\n"
                        + "      \"note\": \"@TestMethodOrder(X): tests of this class run in its own fixed order\"\n"
                        + "    }\n"
                        + "  ]\n"
                        + "}",
                new String(Files.readAllBytes(out.resolve("suite.json")), StandardCharsets.UTF_8));
        assertEquals(
                "# the original order: the order `mvn test` runs this module's tests\np.A#x\np.A#y\np.B#z\n",
                new String(Files.readAllBytes(out.resolve("orders/original.txt")), StandardCharsets.UTF_8));
    }

    @Test
    void theFingerprintedWireFormKeepsTheNullNote() {
        assertEquals(
                "{\"schema_version\":1,\"module\":\"g:a\",\"classes\":["
                        + "{\"class\":\"p.A\",\"framework\":\"junit4\",\"reorderable\":true,"
                        + "\"tests\":[\"p.A#x\",\"p.A#y\"],\"dynamic\":[],\"note\":null},"
                        + "{\"class\":\"p.B\",\"framework\":\"junit5\",\"reorderable\":false,"
                        + "\"tests\":[\"p.B#z\"],\"dynamic\":[\"p.B#z\"],"
                        + "\"note\":\"@TestMethodOrder(X): tests of this class run in its own fixed order\"}]}",
                Json.WIRE.toJson(DiscoveredSuite.of(discovered())));
    }
}
