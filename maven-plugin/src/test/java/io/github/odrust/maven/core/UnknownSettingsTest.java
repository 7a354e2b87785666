package io.github.odrust.maven.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Properties;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.junit.jupiter.api.Test;

class UnknownSettingsTest {
    private static final UnknownSettings.Known KNOWN = UnknownSettings.Known.of(
            List.of("odrust.strategy", "odrust.rounds", "odrust.seed", "odrust.outputDirectory"),
            List.of("strategy", "rounds", "seed", "outputDirectory", "skip"));

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void aMisspelledPropertyIsNamedWithTheNearestKnownOne() {
        assertEquals(
                List.of("-Dodrust.stratgy=tuscan is not a setting of any odrust goal; did you mean -Dodrust.strategy?"
                        + " (docs/configuration.md lists them all)"),
                UnknownSettings.properties(
                        KNOWN,
                        props("odrust.stratgy", "tuscan", "odrust.seed", "3", "maven.repo.local", "x"),
                        props()));
    }

    @Test
    void aPropertyFarFromEveryKnownOneGetsTheListsPlace() {
        assertEquals(
                List.of("-Dodrust.banana=1 is not a setting of any odrust goal (docs/configuration.md lists them all)"),
                UnknownSettings.properties(KNOWN, props("odrust.banana", "1"), props()));
    }

    @Test
    void aPropertyTheProjectDefinesItselfIsLeftAlone() {
        assertEquals(
                List.of(),
                UnknownSettings.properties(KNOWN, props("odrust.version", "0.1.0"), props("odrust.version", "0.0.9")));
    }

    @Test
    void configurationKeysNoGoalKnowsAreNamed() {
        Plugin plugin = new Plugin();
        Xpp3Dom config = new Xpp3Dom("configuration");
        config.addChild(new Xpp3Dom("strategy"));
        config.addChild(new Xpp3Dom("rounds"));
        config.addChild(new Xpp3Dom("stratgy"));
        plugin.setConfiguration(config);
        PluginExecution nightly = new PluginExecution();
        nightly.setId("nightly");
        Xpp3Dom execConfig = new Xpp3Dom("configuration");
        execConfig.addChild(new Xpp3Dom("seeed"));
        nightly.setConfiguration(execConfig);
        plugin.addExecution(nightly);
        assertEquals(
                List.of(
                        "<stratgy> in the odrust plugin's <configuration> is not a parameter of any odrust goal;"
                                + " did you mean <strategy>? (docs/configuration.md lists them all)",
                        "<seeed> in the odrust plugin's <execution> nightly's <configuration> is not a parameter of"
                                + " any odrust goal; did you mean <seed>? (docs/configuration.md lists them all)"),
                UnknownSettings.configuration(KNOWN, plugin));
    }

    @Test
    void distanceCountsEdits() {
        assertEquals(0, UnknownSettings.distance("abc", "abc"));
        assertEquals(1, UnknownSettings.distance("stratgy", "strategy"));
        assertEquals(3, UnknownSettings.distance("kitten", "sitting"));
    }
}
