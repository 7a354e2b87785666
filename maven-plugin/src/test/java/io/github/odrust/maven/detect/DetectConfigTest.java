package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.github.odrust.engine.EngineLoader;
import io.github.odrust.engine.protocol.Vocabulary;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectConfigTest {
    /** The real engine's names and defaults: the defaults asserted below are the engine's. */
    private static final Vocabulary VOCABULARY =
            EngineLoader.load(null, "0.1.0-SNAPSHOT").call("vocabulary", new JsonObject(), Vocabulary.class);

    @Test
    void parsesTimeBudgets() {
        assertEquals(90_000, DetectConfig.parseDuration("90s"));
        assertEquals(90_000, DetectConfig.parseDuration("90"));
        assertEquals(600_000, DetectConfig.parseDuration("10m"));
        assertEquals(5_400_000, DetectConfig.parseDuration("1h30m"));
        assertEquals(250, DetectConfig.parseDuration("250ms"));
    }

    @Test
    void rejectsWhatIsNotADurationNamingTheValue() {
        for (String bad : new String[] {"ten minutes", "10x", "", "0s", "-5m"}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> DetectConfig.parseDuration(bad), bad);
            assertTrue(e.getMessage().contains("odrust.timeBudget=" + bad), e.getMessage());
        }
    }

    @Test
    void resumingWithAnotherSeedOrStrategyIsRefusedButMoreRoundsAreNot() {
        DetectConfig c = new DetectConfig();
        c.strategy = "reverse-passing";
        c.seed = 7;
        c.rounds = 20;
        c.baselineTries = 3;
        c.aloneRuns = 10;
        JsonObject saved = c.toJson();
        c.rounds = 40;
        assertEquals(List.of(), c.incompatibleWith(saved));
        c.seed = 8;
        c.strategy = "random-class";
        assertEquals(
                List.of("odrust.strategy was reverse-passing, now random-class", "odrust.seed was 7, now 8"),
                c.incompatibleWith(saved));
    }

    @Test
    void resumingWithOtherDependenceSettingsIsRefused() {
        DetectConfig c = new DetectConfig();
        c.strategy = "dependence-aware";
        c.dependenceFree = DetectConfig.commaList(" p.Log#* , ,*#COUNT");
        assertEquals(List.of("p.Log#*", "*#COUNT"), c.dependenceFree);
        JsonObject saved = c.toJson();
        assertEquals(List.of(), c.incompatibleWith(saved));
        c.dependenceFree = List.of("p.Log#*");
        c.costAware = true;
        assertEquals(
                List.of(
                        "odrust.costAware was false, now true",
                        "odrust.dependence.free was p.Log#*,*#COUNT, now p.Log#*"),
                c.incompatibleWith(saved));
    }

    @Test
    void resumingWithOtherNewTestClassesIsRefusedAndTheyReachTheEngine() {
        DetectConfig c = new DetectConfig();
        c.strategy = "targeted";
        c.newClasses = List.of("p.NewTest");
        JsonObject saved = c.toJson();
        assertEquals(List.of(), c.incompatibleWith(saved));
        assertEquals(List.of("p.NewTest"), c.toRequest().newClasses);
        c.newClasses = List.of();
        assertEquals(
                List.of("the new or changed test classes (odrust:incremental) was p.NewTest, now none"),
                c.incompatibleWith(saved));
        assertEquals(null, c.toRequest().newClasses, "none: left out of the request");
        // odrust:minimize after an incremental run continues it with its new classes
        DetectConfig resumed = DetectConfig.resolve(new DetectConfig.Given(), saved, 0, VOCABULARY);
        assertEquals(List.of("p.NewTest"), resumed.newClasses);
        assertEquals(List.of(), resumed.incompatibleWith(saved));
    }

    @Test
    void settingsGivenWinThenTheRecordedRunsThenTheDefaults() {
        DetectConfig.Given given = new DetectConfig.Given();
        DetectConfig fresh = DetectConfig.resolve(given, null, 0, VOCABULARY);
        assertEquals("targeted", fresh.strategy);
        assertTrue(fresh.recordBaseline, "targeted records its baseline");
        assertEquals(20, fresh.rounds);
        assertEquals(3, fresh.baselineTries);
        assertEquals(3, fresh.aloneRuns);
        assertEquals(2, fresh.k);
        assertEquals(null, fresh.minimizeBudget, "the engine decides: 60 per OD test to explain");
        assertEquals(false, fresh.costAware);
        assertEquals(true, DetectConfig.resolve(given, null, 60_000, VOCABULARY).costAware);
        given.strategy = " tuscan ";
        assertEquals(Integer.MAX_VALUE, DetectConfig.resolve(given, null, 0, VOCABULARY).rounds);

        DetectConfig recorded = new DetectConfig();
        recorded.strategy = "dependence-aware";
        recorded.rounds = 7;
        recorded.seed = 99;
        recorded.baselineTries = 2;
        recorded.aloneRuns = 4;
        recorded.costAware = true;
        recorded.dependenceFree = List.of("p.Log#*");
        given = new DetectConfig.Given();
        given.aloneRuns = 5;
        DetectConfig resumed = DetectConfig.resolve(given, recorded.toJson(), 0, VOCABULARY);
        assertEquals("dependence-aware", resumed.strategy);
        assertEquals(7, resumed.rounds);
        assertEquals(99, resumed.seed);
        assertEquals(2, resumed.baselineTries);
        assertEquals(5, resumed.aloneRuns);
        assertEquals(true, resumed.costAware);
        assertEquals(List.of("p.Log#*"), resumed.dependenceFree);
    }

    @Test
    void aShardKeepsItsSettingOnResumeRefusesAnotherAndRanksNothingByItsOwnTimesByDefault() {
        DetectConfig.Given given = new DetectConfig.Given();
        given.seed = 7L;
        given.shard = " 2/3 ";
        DetectConfig shard = DetectConfig.resolve(given, null, 60_000, VOCABULARY);
        assertEquals("2/3", shard.shard);
        assertEquals("2/3", shard.toJson().get("shard").getAsString());
        assertEquals(false, shard.costAware, "a time budget turns cost-aware on, but not for a shard");
        JsonObject saved = shard.toJson();
        DetectConfig resumed = DetectConfig.resolve(new DetectConfig.Given(), saved, 0, VOCABULARY);
        assertEquals("2/3", resumed.shard);
        assertEquals(List.of(), resumed.incompatibleWith(saved));
        resumed.shard = "3/3";
        assertEquals(List.of("odrust.shard was 2/3, now 3/3"), resumed.incompatibleWith(saved));
        resumed.shard = null;
        assertEquals(List.of("odrust.shard was 2/3, now none (the whole plan)"), resumed.incompatibleWith(saved));
    }

    @Test
    void numbersTheEngineCannotUseAreRefused() throws Exception {
        DetectConfig c = DetectConfig.resolve(new DetectConfig.Given(), null, 0, VOCABULARY);
        c.check();
        c.aloneRuns = 0;
        assertThrows(org.apache.maven.plugin.MojoFailureException.class, c::check);
        assertEquals(0, DetectConfig.timeBudget(" "));
        assertEquals(90_000, DetectConfig.timeBudget("90s"));
        assertThrows(org.apache.maven.plugin.MojoFailureException.class, () -> DetectConfig.timeBudget("soon"));
    }

    @Test
    void thePlanLineSaysWhatDependenceAwareSavesOverTuscan() {
        JsonObject plan = com.google.gson.JsonParser.parseString(
                        "{\"strategy\":\"dependence-aware\",\"orders\":3,"
                                + "\"executions\":8,\"pairs\":4,\"predicted_ms\":1900,\"cost0_ms\":600,\"unrecorded\":0,"
                                + "\"tuscan\":{\"strategy\":\"tuscan\",\"orders\":16,\"executions\":126,\"pairs\":110,\"predicted_ms\":10900}}")
                .getAsJsonObject();
        assertEquals(
                "plan: dependence-aware: 3 orders, 8 test executions, 4 pairs to cover, predicted 1.9 s (0.6 s per JVM"
                        + " start + test times, from the baseline); tuscan would run 16 orders, 126 test executions, 110 pairs,"
                        + " predicted 10.9 s",
                Detector.planLine(io.github.odrust.engine.Json.WIRE.fromJson(
                        plan, io.github.odrust.engine.protocol.PlanInfo.class)));
    }
}
