package io.github.odrust.maven.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.maven.surefire.SurefireSettings;
import io.github.odrust.maven.surefire.TestSelection;
import org.junit.jupiter.api.Test;

class DiscoveryTest {
    @Test
    void methodFiltersOfTheTestParameterKeepOnlyTheSelectedTests() throws Exception {
        SurefireSettings s = new SurefireSettings();
        s.test = "CartTest#adds*";
        JsonObject record = JsonParser.parseString(
                        "{\"class\":\"a.CartTest\",\"framework\":\"junit5\",\"tests\":"
                                + "[\"a.CartTest#addsItem\",\"a.CartTest#adds[1]\",\"a.CartTest#removes\"],\"dynamic\":[\"a.CartTest#removes\"]}")
                .getAsJsonObject();
        Discovery.keepSelected(record, TestSelection.of(s));
        assertEquals(
                "[\"a.CartTest#addsItem\",\"a.CartTest#adds[1]\"]",
                record.get("tests").toString());
        assertEquals("[]", record.get("dynamic").toString());
    }

    @Test
    void theCountSaysWhenParameterizedMethodsCountOnce() {
        DiscoveredSuite suite = new DiscoveredSuite();
        DiscoveredSuite.ClassRecord plain = new DiscoveredSuite.ClassRecord();
        plain.className = "a.A";
        plain.tests.add("a.A#t");
        suite.classes.add(plain);
        assertEquals("", Discovery.countNote(suite));
        DiscoveredSuite.ClassRecord param = new DiscoveredSuite.ClassRecord();
        param.className = "a.P";
        param.tests.add("a.P#each(int)");
        param.tests.add("a.P#twice");
        param.dynamic.add("a.P#each(int)");
        param.dynamic.add("a.P#twice");
        suite.classes.add(param);
        assertEquals(
                " (2 of them parameterized, repeated or factory methods, each counted once; Surefire counts every"
                        + " invocation)",
                Discovery.countNote(suite));
    }
}
