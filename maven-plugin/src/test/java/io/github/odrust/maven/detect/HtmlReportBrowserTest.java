package io.github.odrust.maven.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html as a browser shows it: headless Chromium (the OS package; .ci/run installs it) loads
 * the page the engine renders, runs its script, and its DOM is checked: the headline, one card
 * per flaky test with its drawn order, rate bar and copy button, the glossary, and no horizontal
 * overflow in a narrow window (asked for 360 px; headless Chromium makes it at least 500 px wide).
 */
class HtmlReportBrowserTest {
    @TempDir
    Path dir;

    private static final String SUMMARY = "{\"seed\":7,\"strategy\":\"reverse-passing\",\"tests_total\":12,"
            + "\"results_per_run\":14,\"experiments\":40,\"rounds_run\":20,\"rounds_planned\":20,\"failing\":[],"
            + "\"flaky\":[{\"test\":\"com.acme.shop.checkout.VeryLongCheckoutServiceIntegrationTest#appliesTheDiscountOnlyOnceWhenTheCartIsReloaded\","
            + "\"kind\":\"victim\",\"failing_experiment\":9,\"passing_experiment\":10,\"message\":\"expected: <1> but was: <2>\","
            + "\"alone\":{\"runs\":3,\"passed\":3},\"evidence\":\"failed in round 4\",\"polluters\":[[\"com.acme.shop.LoginTest#logsIn\"]],"
            + "\"cleaners\":{\"com.acme.shop.LoginTest#logsIn\":[\"com.acme.shop.LogoutTest#logsOut\"]},\"state_setters\":[],"
            + "\"flake_rate\":{\"all_orders\":0.3333,\"class_compatible\":0.25,\"reverse_of_passing\":0.5,\"method\":\"formula\","
            + "\"case\":\"special-case-2\",\"ci95\":null,\"samples\":null},\"minimize_experiments\":14,\"minimize_complete\":true},"
            + "{\"test\":\"com.acme.shop.ClockTest#ticks\",\"kind\":\"nod\",\"failing_experiment\":3,\"passing_experiment\":4,"
            + "\"message\":\"timeout\",\"evidence\":\"failed and passed in the same order\",\"minimize_experiments\":0,\"minimize_complete\":false}],"
            + "\"notes\":[\"explaining `com.acme.shop.checkout.VeryLongCheckoutServiceIntegrationTest#appliesTheDiscountOnlyOnceWhenTheCartIsReloaded`"
            + " stopped while searching for cleaners of polluter `com.acme.shop.LoginTest#logsIn`\"]}";

    @Test
    void theReportReadsInABrowser() throws Exception {
        Engine engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
        JsonObject summary = JsonParser.parseString(SUMMARY).getAsJsonObject();
        Path out = dir.resolve("target/odrust");
        Files.createDirectories(out);
        ReportWriter.write(
                engine,
                summary,
                new ReportWriter.Context("com.acme:shop", dir, out, "odrust:reproduce", "0.1.0"),
                true,
                out);
        String dom = dumpDom(out.resolve("report.html"), 360);

        assertTrue(dom.contains("data-ready=\"1\""), "the page's script did not run:\n" + dom);
        assertTrue(dom.contains("data-overflow=\"false\""), "the page is wider than a narrow window:\n" + dom);
        assertTrue(
                dom.contains(
                        "Found 1 order-dependent test (1 victim) and 1 flaky test that does not depend on the order."),
                dom);
        assertEquals(2, count(dom, "<article class=\"card "), dom);
        assertEquals(2, count(dom, "<button type=\"button\" class=\"copy\""), dom);
        assertTrue(dom.contains("failed in round 4. Explaining it took 14 experiments."), dom);
        assertTrue(
                dom.contains(
                        "<span class=\"step cleaner\" title=\"cleaner\"><code>com.acme.shop.LogoutTest#logsOut</code></span>"),
                dom);
        assertTrue(dom.contains("<span style=\"width:25.0%\"></span>"), dom);
        assertTrue(dom.contains("12 tests (14 results per run, as mvn test counts invocations)"), dom);
        assertTrue(dom.contains("<section id=\"glossary\">"), dom);
        assertTrue(dom.contains("<a href=\"orders/exp-9.txt\">"), dom);
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private String dumpDom(Path page, int width) throws Exception {
        return io.github.odrust.maven.HeadlessChromium.dumpDom(page, width, dir);
    }
}
