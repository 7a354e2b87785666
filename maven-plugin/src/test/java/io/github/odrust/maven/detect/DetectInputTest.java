package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.odrust.engine.protocol.Summary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** odrust:repair's input: each kind of bad input gets a message that names the fix. */
class DetectInputTest {
    @TempDir
    Path out;

    private void report(String json) throws Exception {
        Files.write(out.resolve("report.json"), json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    private static final String GOOD =
            "{'schema_version':2,'module':'g:a','odrust_version':'0.1.0','complete':true,'flaky':["
                    + "{'test':'p.V#v','kind':'victim','polluters':[['p.P#p']],'cleaners':{'p.P#p':['p.C#c']},'failing_experiment':4},"
                    + "{'test':'p.N#n','kind':'nod'}]}";

    @Test
    void noReportSaysToRunDetectFirst() {
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.1.0"));
        assertTrue(
                e.getMessage().contains("does not exist") && e.getMessage().contains("mvn odrust:detect"),
                e.getMessage());
    }

    @Test
    void aReportOfAnotherVersionOrSchemaOrNotJsonIsRefusedWithTheFix() throws Exception {
        report(GOOD);
        MojoFailureException other = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.2.0"));
        assertTrue(other.getMessage().contains("made by odrust 0.1.0, and this is odrust 0.2.0"), other.getMessage());
        report(GOOD.replace("'odrust_version':'0.1.0',", ""));
        MojoFailureException older = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.1.0"));
        assertTrue(older.getMessage().contains("an older odrust"), older.getMessage());
        report(GOOD.replace("'schema_version':2", "'schema_version':7"));
        MojoFailureException schema = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.1.0"));
        assertTrue(schema.getMessage().contains("schema_version 7"), schema.getMessage());
        report(GOOD.replace("'kind':'nod'", "'kind':'banana'"));
        MojoFailureException banana = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.1.0"));
        assertTrue(
                banana.getMessage().contains("flaky[1] (p.N#n) has kind `banana`, which is not one of victim, brittle"),
                banana.getMessage());
        report("{not json");
        MojoFailureException broken = assertThrows(MojoFailureException.class, () -> DetectInput.load(out, "0.1.0"));
        assertTrue(
                broken.getMessage().startsWith("cannot read ")
                        && broken.getMessage().contains("odrust:detect"),
                broken.getMessage());
    }

    @Test
    void theTestNamedMustBeAnOrderDependentTestOfTheReport() throws Exception {
        report(GOOD);
        DetectInput input = DetectInput.load(out, "0.1.0");
        assertEquals(1, input.targets(null).size());
        assertEquals("p.V#v", input.targets("p.V#v").get(0).test);
        assertEquals("p.V#v", input.targets("V#v").get(0).test, "the short form the console prints");
        MojoFailureException missing = assertThrows(MojoFailureException.class, () -> input.targets("p.X#x"));
        assertTrue(
                missing.getMessage().contains("p.X#x") && missing.getMessage().contains("it has: p.V#v"),
                missing.getMessage());
        MojoFailureException nod = assertThrows(MojoFailureException.class, () -> input.targets("p.N#n"));
        assertTrue(nod.getMessage().contains("NOD"), nod.getMessage());
    }

    @Test
    void aMissingFailingOrderFileIsMadeAgainFromTheHistoryOrRefused() throws Exception {
        report(GOOD.replace("'failing_experiment':4}", "'failing_experiment':4,'failing_order':'orders/exp-4.txt'}"));
        DetectInput input = DetectInput.load(out, "0.1.0");
        Summary.FlakyTest victim = input.targets("p.V#v").get(0);
        MojoFailureException none = assertThrows(MojoFailureException.class, () -> input.failingOrder(victim, out));
        assertTrue(
                none.getMessage().contains("is missing") && none.getMessage().contains("no experiment 4"),
                none.getMessage());
        Files.createDirectories(out.resolve("detect"));
        Files.write(
                out.resolve("detect/experiments.jsonl"),
                ("{\"id\":3,\"kind\":\"round\",\"order\":[\"p.V#v\"]}\n"
                                + "{\"id\":4,\"kind\":\"round\",\"order\":[\"p.P#p\",\"p.V#v\"]}\n")
                        .getBytes(StandardCharsets.UTF_8));
        assertEquals(java.util.List.of("p.P#p", "p.V#v"), input.failingOrder(victim, out));
        assertTrue(Files.readString(out.resolve("orders/exp-4.txt")).contains("regenerated"), "written back");
        assertEquals(java.util.List.of("p.P#p", "p.V#v"), input.failingOrder(victim, out), "read from the file now");
    }
}
