package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class DetectConfigTest {
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
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DetectConfig.parseDuration(bad), bad);
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
        assertEquals(List.of("odrust.strategy was reverse-passing, now random-class", "odrust.seed was 7, now 8"),
                c.incompatibleWith(saved));
    }
}
