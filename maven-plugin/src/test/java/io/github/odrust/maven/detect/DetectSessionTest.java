package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.protocol.DetectEndRequest;
import io.github.odrust.engine.protocol.DetectRequest;
import io.github.odrust.engine.protocol.ExperimentRecord;
import io.github.odrust.engine.protocol.Suite;
import io.github.odrust.engine.protocol.Vocabulary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plugin's session with the real engine: the answers of a whole replay, and a lost session survived. */
class DetectSessionTest {
    private static final String SUITE = "{'schema_version':1,'module':'g:a','classes':["
            + "{'class':'p.A','framework':'junit4','reorderable':true,'tests':['p.A#polluter','p.A#a2'],'dynamic':[]},"
            + "{'class':'p.V','framework':'junit4','reorderable':true,'tests':['p.V#victim','p.V#v2'],'dynamic':[]},"
            + "{'class':'p.C','framework':'junit4','reorderable':true,'tests':['p.C#c1'],'dynamic':[]}]}";

    @Test
    void answersAsAWholeReplayDoesEvenWhenTheEngineForgetsTheSession(@TempDir Path dir) throws Exception {
        Engine engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
        DetectConfig config = DetectConfig.resolve(
                new DetectConfig.Given(), null, 0, engine.call("vocabulary", new JsonObject(), Vocabulary.class));
        config.strategy = "random-class-method";
        config.rounds = 8;
        config.seed = 7;
        JsonObject suite = JsonParser.parseString(SUITE.replace('\'', '"')).getAsJsonObject();
        ExperimentLog history = ExperimentLog.create(dir.resolve("experiments.jsonl"));
        int forgotten = 0;
        try (DetectSession session = new DetectSession(engine, suite, config, history)) {
            for (int step = 0; step < 500; step++) {
                DetectRequest whole = new DetectRequest();
                whole.config = config.toRequest();
                whole.suite = Suite.of(suite);
                history.history().forEach(r -> whole.history.add(ExperimentRecord.of(r)));
                JsonObject next = session.next();
                assertEquals(engine.call("detect_next", whole), next, "after " + history.size() + " experiments");
                assertEquals(engine.call("detect_summary", whole), session.summary());
                if (next.get("experiment").isJsonNull()) {
                    assertTrue(history.size() > 8, "rounds ran: " + history.size());
                    assertTrue(forgotten > 0);
                    return;
                }
                JsonObject record = next.getAsJsonObject("experiment").deepCopy();
                JsonArray results = new JsonArray();
                boolean polluted = false;
                for (var t : record.getAsJsonArray("order")) {
                    String test = t.getAsString();
                    polluted |= test.equals("p.A#polluter");
                    JsonObject r = new JsonObject();
                    r.addProperty("test", test);
                    r.addProperty("outcome", test.equals("p.V#victim") && polluted ? "fail" : "pass");
                    results.add(r);
                }
                record.add("results", results);
                record.addProperty("honoured", true);
                record.addProperty("millis", 5);
                history.append(record);
                if (step % 5 == 4) {
                    // The engine no longer holds it (another process, evicted): the next call resends all.
                    assertTrue(engine.call("detect_end", new DetectEndRequest(session.id()))
                            .get("ended")
                            .getAsBoolean());
                    forgotten++;
                }
            }
        }
        fail("detection did not end");
    }
}
