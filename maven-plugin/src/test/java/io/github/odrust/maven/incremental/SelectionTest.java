package io.github.odrust.maven.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SelectionTest {
    private static JsonObject saved(Map<String, String> parts) {
        JsonObject o = new JsonObject();
        parts.forEach(o::addProperty);
        return o;
    }

    @Test
    void aChangedBuildIsNamedPartByPartWithTheFixForAProperty() {
        Map<String, String> before = new TreeMap<>(
                Map.of("classpath", "c1", "surefire argLine", "a1", "-Dorg.slf4j.simpleLogger.defaultLogLevel", "p1"));
        Map<String, String> now =
                new TreeMap<>(Map.of("classpath", "c1", "surefire argLine", "a2", "-Dbuild.number", "n1"));
        String text = Selection.changedParts(saved(before), now);
        assertTrue(
                text.startsWith(": what changed: -Dbuild.number (new), -Dorg.slf4j.simpleLogger.defaultLogLevel"
                        + " (gone), surefire argLine"),
                text);
        assertTrue(text.contains("give settings that do not concern the tests"), text);
        assertEquals(
                ": what changed: surefire argLine",
                Selection.changedParts(saved(Map.of("surefire argLine", "a1")), Map.of("surefire argLine", "a2")));
        assertEquals("", Selection.changedParts(null, now), "an older state file: nothing to compare");
        assertEquals("", Selection.changedParts(saved(now), now));
    }
}
