package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.json as the engine builds it from a summary, and the HTML and XML written beside it. */
class ReportWriterTest {
    private static final Engine ENGINE = EngineLoader.load(null, "0.1.0-SNAPSHOT");

    @TempDir
    Path dir;

    private static JsonObject summary(String flaky) {
        return JsonParser.parseString("{\"seed\":1,\"strategy\":\"reverse-passing\",\"tests_total\":4,"
                        + "\"experiments\":12,\"rounds_run\":3,\"rounds_planned\":3,\"failing\":[],\"flaky\":["
                        + flaky + "],\"notes\":[]}")
                .getAsJsonObject();
    }

    @Test
    void addsModuleRelativeOrderPathsAndAReproduceCommand() throws Exception {
        JsonObject summary = summary("{\"test\":\"p.V#v\",\"kind\":\"victim\","
                + "\"failing_experiment\":9,\"passing_experiment\":10},{\"test\":\"p.N#n\",\"kind\":\"nod\","
                + "\"failing_experiment\":3,\"passing_experiment\":4}");
        Path out = dir.resolve("target/odrust");
        JsonObject r = ReportWriter.write(
                ENGINE, summary, new ReportWriter.Context("g:a", dir, out, "odrust:reproduce", "0.1.0"), false, out);
        assertEquals(2, r.get("schema_version").getAsInt());
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
        // the engine's summary is not changed
        assertFalse(summary.getAsJsonArray("flaky").get(0).getAsJsonObject().has("reproduce"));
        // the three files, report.json exactly as returned
        assertEquals(JsonParser.parseString(Files.readString(out.resolve("report.json"), StandardCharsets.UTF_8)), r);
        assertTrue(Files.readString(out.resolve("report.html")).contains("p.V#v"));
        assertTrue(Files.readString(out.resolve("surefire-reports/TEST-odrust.xml"))
                .contains("p.V"));
    }

    @Test
    void anOutputDirectoryOutsideTheModuleIsNamedInFull() throws Exception {
        Path out = dir.resolve("elsewhere/odrust").toAbsolutePath();
        Path module = dir.resolve("module");
        JsonObject r = ReportWriter.write(
                ENGINE,
                summary("{\"test\":\"p.V#v\",\"kind\":\"victim\",\"failing_experiment\":2,\"passing_experiment\":1}"),
                new ReportWriter.Context("g:a", module, out, "odrust:reproduce", "0.1.0"),
                true,
                out);
        assertEquals(
                out.resolve("orders/exp-2.txt").toString().replace('\\', '/'),
                r.getAsJsonArray("flaky")
                        .get(0)
                        .getAsJsonObject()
                        .get("failing_order")
                        .getAsString());
    }

    @Test
    void countsTheExplanationsAndHowManyFinished() throws Exception {
        JsonObject summary = summary(
                "{\"test\":\"p.V#a\",\"kind\":\"victim\",\"minimize_experiments\":12,\"minimize_complete\":true},"
                        + "{\"test\":\"p.V#b\",\"kind\":\"victim\",\"minimize_experiments\":60,\"minimize_complete\":false},"
                        + "{\"test\":\"p.B#c\",\"kind\":\"brittle\",\"minimize_experiments\":0,\"minimize_complete\":false},"
                        + "{\"test\":\"p.N#n\",\"kind\":\"nod\",\"minimize_experiments\":0,\"minimize_complete\":false}");
        Path out = dir.resolve("target/odrust");
        JsonObject r = ReportWriter.write(
                ENGINE, summary, new ReportWriter.Context("g:a", dir, out, "odrust:reproduce", "0.1.0"), true, out);
        JsonObject e = r.getAsJsonObject("explanations");
        assertEquals(
                2,
                e.get("explained").getAsInt(),
                "the brittle got no explanation experiment, the NOD test none at all");
        assertEquals(1, e.get("complete").getAsInt());
    }

    @Test
    void aReportWrittenAgainKeepsWhatWasAddedToIt() throws Exception {
        Path out = dir.resolve("target/odrust");
        JsonObject r = ReportWriter.write(
                ENGINE,
                summary("{\"test\":\"p.V#v\",\"kind\":\"victim\",\"failing_experiment\":2,\"passing_experiment\":1}"),
                new ReportWriter.Context("g:a", dir, out, "odrust:reproduce", "0.1.0"),
                true,
                out);
        String before = Files.readString(out.resolve("report.json"));
        assertEquals(r, ReportWriter.rewrite(ENGINE, r, out), "written again unchanged");
        assertEquals(before, Files.readString(out.resolve("report.json")));
    }

    private static final String DIAGNOSIS = "{\"test\":\"p.V#v\",\"kind\":\"victim\",\"status\":\"confirmed\","
            + "\"reason\":\"r\",\"failing_order\":[\"p.P#p\",\"p.V#v\"],\"passing_order\":[\"p.V#v\"],"
            + "\"fields\":[{\"field\":\"p.Prices.RATES\",\"pseudo\":false,\"final\":true,\"kind\":\"changed\","
            + "\"failing\":\"{eur=0.9}\",\"passing\":\"{}\",\"differences\":[],\"more\":0,"
            + "\"restorable\":true,\"confirmed\":true}],\"polluted_state\":[\"p.Prices.RATES\"],"
            + "\"experiments\":4,\"failing_capture\":null,\"passing_capture\":null}";

    @Test
    void aRunThatGoesOnKeepsTheDiagnosesOfTheTestsStillFlaky() throws Exception {
        Path out = dir.resolve("target/odrust");
        String victim = "{\"test\":\"p.V#v\",\"kind\":\"victim\",\"failing_experiment\":2,\"passing_experiment\":1}";
        String gone = "{\"test\":\"p.G#g\",\"kind\":\"victim\",\"failing_experiment\":3,\"passing_experiment\":1}";
        JsonObject first = ReportWriter.write(
                ENGINE,
                summary(victim + "," + gone),
                new ReportWriter.Context("g:a", dir, out, "odrust:reproduce", "0.1.0"),
                true,
                out);
        // odrust:diagnose adds its verdicts (as DiagnoseFile does)
        JsonObject diagnosis = JsonParser.parseString(DIAGNOSIS).getAsJsonObject();
        first.getAsJsonArray("flaky").get(0).getAsJsonObject().add("polluted_state", diagnosis);
        JsonObject gDiagnosis = diagnosis.deepCopy();
        gDiagnosis.addProperty("test", "p.G#g");
        first.getAsJsonArray("flaky").get(1).getAsJsonObject().add("polluted_state", gDiagnosis);
        ReportWriter.rewrite(ENGINE, first, out);

        // odrust:minimize goes on: p.G#g is no longer flaky, p.N#n is new
        String other = "{\"test\":\"p.N#n\",\"kind\":\"victim\",\"failing_experiment\":5,\"passing_experiment\":1}";
        ReportWriter.Context context = new ReportWriter.Context("g:a", dir, out, "odrust:reproduce", "0.1.0")
                .keepingDiagnoses(out.resolve("report.json"));
        for (boolean complete : new boolean[] {false, true}) {
            JsonObject r = ReportWriter.write(ENGINE, summary(victim + "," + other), context, complete, out);
            JsonObject v = r.getAsJsonArray("flaky").get(0).getAsJsonObject();
            assertEquals("p.V#v", v.get("test").getAsString());
            assertEquals(
                    diagnosis, v.get("polluted_state"), "kept, in the " + (complete ? "final" : "partial") + " report");
            JsonObject n = r.getAsJsonArray("flaky").get(1).getAsJsonObject();
            assertTrue(!n.has("polluted_state") || n.get("polluted_state").isJsonNull(), n.toString());
            assertEquals(r, JsonParser.parseString(Files.readString(out.resolve("report.json"))));
            assertTrue(Files.readString(out.resolve("report.html"))
                    .contains("p.Prices.RATES is {eur=0.9} after the polluter"));
        }

        // a report another odrust wrote keeps nothing; neither does a missing one
        assertTrue(
                ReportWriter.pollutedStates(out.resolve("report.json"), "0.2.0").isEmpty());
        assertTrue(
                ReportWriter.pollutedStates(out.resolve("none.json"), "0.1.0").isEmpty());
        assertEquals(
                List.of("p.V#v"),
                List.copyOf(ReportWriter.pollutedStates(out.resolve("report.json"), "0.1.0")
                        .keySet()));
    }
}
