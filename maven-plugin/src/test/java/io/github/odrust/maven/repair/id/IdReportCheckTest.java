package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.maven.idtests.IdDetector;
import java.nio.file.Path;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;

class IdReportCheckTest {
    private static final Path FILE = Path.of("target/odrust/id/report.json");

    private static JsonObject json(String text) {
        return JsonParser.parseString(text).getAsJsonObject();
    }

    private static String refused(String text) {
        return assertThrows(MojoFailureException.class, () -> IdRepairer.check(FILE, json(text), "0.1.0"))
                .getMessage();
    }

    @Test
    void aReportOfThisOdrustWithIdAndUnconfirmedTestsIsRead() throws Exception {
        IdRepairer.check(
                FILE,
                json("{'engine':'0.1.0','settings':{'counting':" + IdDetector.COUNTING + "},"
                        + "'outcome':{'tests':[{'test':'p.A#a','status':'id'},"
                        + "{'test':'p.B#b','status':'unconfirmed'}]}}"),
                "0.1.0");
    }

    @Test
    void anotherVersionAMissingListOrAnUnknownStatusIsRefusedNamingWhereAndTheFix() {
        String m = refused("{'engine':'0.0.9','outcome':{'tests':[]}}");
        assertTrue(
                m.contains("made by odrust 0.0.9, and this is odrust 0.1.0") && m.contains("mvn odrust:detect-id"), m);
        m = refused("{'engine':'0.1.0','settings':{'counting':2},'outcome':{'tests':[]}}");
        assertTrue(
                m.contains("settings.counting 2, this odrust counts as " + IdDetector.COUNTING)
                        && m.contains("mvn odrust:detect-id"),
                m);
        m = refused("{'engine':'0.1.0','outcome':{'tests':[]}}");
        assertTrue(m.contains("settings.counting missing"), m);
        String ok = "'engine':'0.1.0','settings':{'counting':" + IdDetector.COUNTING + "},";
        m = refused("{" + ok + "'outcome':{}}");
        assertTrue(m.contains("outcome.tests is missing"), m);
        m = refused(
                "{" + ok + "'outcome':{'tests':[{'test':'p.A#a','status':'id'},{'test':'p.B#b','status':'banana'}]}}");
        assertTrue(m.contains("outcome.tests[1] (p.B#b) has status `banana`"), m);
        m = refused("{" + ok + "'outcome':{'tests':[{'status':'id'}]}}");
        assertTrue(m.contains("outcome.tests[0] has no test id"), m);
    }
}
