package io.github.odrust.maven.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonParser;
import com.google.gson.JsonObject;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.protocol.Vocabulary;
import io.github.odrust.maven.detect.DetectConfig;
import io.github.odrust.maven.detect.ExperimentLog;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MinimizeTargetsTest {
    @Test
    void theNamedTestIsExplainedAfterThoseTheRecordedRunAlreadyExplained(@TempDir Path dir) throws Exception {
        ExperimentLog history = ExperimentLog.create(dir.resolve("experiments.jsonl"));
        for (String record : new String[] {
                "{'id':1,'kind':'baseline','round':null,'strategy':'original','order':['p.A#a'],'targets':[],'results':[]}",
                "{'id':2,'kind':'polluter-search','round':null,'strategy':null,'order':['p.A#a','p.V#v'],'targets':['p.V#v'],'results':[]}",
                "{'id':3,'kind':'setter-pair','round':null,'strategy':null,'order':['p.S#s','p.B#b'],'targets':['p.B#b','p.S#s'],'results':[]}",
                "{'id':4,'kind':'cleaner','round':null,'strategy':null,'order':['p.P#p','p.C#c','p.V#v'],'targets':['p.V#v','p.P#p','p.C#c'],'results':[]}"}) {
            history.append(JsonParser.parseString(record.replace('\'', '"')).getAsJsonObject());
        }
        DetectConfig config = new DetectConfig();
        MinimizeTargets.configure(config, " p.W#w ");
        MinimizeTargets.keepEarlierExplanations(config, history,
                EngineLoader.load(null, "0.1.0-SNAPSHOT").call("vocabulary", new JsonObject(), Vocabulary.class).minimizeKinds);
        assertEquals(List.of("p.V#v", "p.B#b", "p.W#w"), config.minimizeOnly);
    }

    @Test
    void aTestMustBeNamed() {
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> MinimizeTargets.configure(new DetectConfig(), " "));
        assertEquals(true, e.getMessage().contains("-Dodrust.test="), e.getMessage());
    }
}
