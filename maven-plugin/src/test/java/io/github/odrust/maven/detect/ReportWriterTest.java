package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
    @Test
    void addsModuleRelativeOrderPathsAndAReproduceCommand() {
        JsonObject summary = JsonParser.parseString("{\"seed\":1,\"flaky\":[{\"test\":\"p.V#v\",\"kind\":\"victim\","
                        + "\"failing_experiment\":9,\"passing_experiment\":10},{\"test\":\"p.N#n\",\"kind\":\"nod\","
                        + "\"failing_experiment\":3,\"passing_experiment\":null}]}")
                .getAsJsonObject();
        Path base = Path.of("/work/p");
        JsonObject r = ReportWriter.report(
                summary, "g:a", base, base.resolve("target/odrust"), "odrust:reproduce", false, "0.1.0");
        assertEquals(1, r.get("schema_version").getAsInt());
        assertEquals("g:a", r.get("module").getAsString());
        assertEquals(
                "0.1.0", r.get("odrust_version").getAsString(), "the version that made it (odrust:repair checks it)");
        assertEquals(false, r.get("complete").getAsBoolean(), "written while the run goes on");
        JsonObject v = r.getAsJsonArray("flaky").get(0).getAsJsonObject();
        assertEquals("target/odrust/orders/exp-9.txt", v.get("failing_order").getAsString());
        assertEquals("target/odrust/orders/exp-10.txt", v.get("passing_order").getAsString());
        assertEquals(
                "mvn odrust:reproduce -Dodrust.order=target/odrust/orders/exp-9.txt",
                v.get("reproduce").getAsString());
        assertTrue(r.getAsJsonArray("flaky")
                .get(1)
                .getAsJsonObject()
                .get("passing_order")
                .isJsonNull());
        // the engine's summary is not changed
        assertTrue(!summary.getAsJsonArray("flaky").get(0).getAsJsonObject().has("reproduce"));
    }

    @Test
    void countsTheExplanationsAndHowManyFinished() {
        JsonObject summary = JsonParser.parseString(
                        "{\"flaky\":["
                                + "{\"test\":\"p.V#a\",\"kind\":\"victim\",\"minimize_experiments\":12,\"minimize_complete\":true},"
                                + "{\"test\":\"p.V#b\",\"kind\":\"victim\",\"minimize_experiments\":60,\"minimize_complete\":false},"
                                + "{\"test\":\"p.B#c\",\"kind\":\"brittle\",\"minimize_experiments\":0,\"minimize_complete\":false},"
                                + "{\"test\":\"p.N#n\",\"kind\":\"nod\",\"minimize_experiments\":0,\"minimize_complete\":false}]}")
                .getAsJsonObject();
        Path base = Path.of("/work/p");
        JsonObject r = ReportWriter.report(
                summary, "g:a", base, base.resolve("target/odrust"), "odrust:reproduce", true, "0.1.0");
        JsonObject e = r.getAsJsonObject("explanations");
        assertEquals(
                2,
                e.get("explained").getAsInt(),
                "the brittle got no explanation experiment, the NOD test none at all");
        assertEquals(1, e.get("complete").getAsInt());
    }
}
