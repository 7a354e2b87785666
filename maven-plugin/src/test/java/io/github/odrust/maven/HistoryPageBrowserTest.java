package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.github.odrust.engine.Engine;
import io.github.odrust.engine.EngineLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** history.html as a browser shows it: the grid, the trend and the "since" column (docs/history.md). */
class HistoryPageBrowserTest {
    @TempDir
    Path dir;

    private static JsonObject record(String file, String json) {
        JsonObject o = new JsonObject();
        o.addProperty("file", file);
        o.addProperty("text", json);
        return o;
    }

    @Test
    void theHistoryReadsInABrowser() throws Exception {
        Engine engine = EngineLoader.load(null, "0.1.0-SNAPSHOT");
        JsonArray records = new JsonArray();
        records.add(
                record(
                        "a.json",
                        "{\"schema_version\":1,\"run_id\":\"r1\",\"goal\":\"detect\",\"module\":\"com.acme:shop\","
                                + "\"date\":\"2026-11-30T10:00:00Z\",\"commit\":\"1111111aaaa\",\"complete\":true,"
                                + "\"ran\":[\"com.acme.shop.CartTest#isEmpty\",\"com.acme.shop.LoginTest#logsIn\"],"
                                + "\"tests\":[{\"test\":\"com.acme.shop.CartTest#isEmpty\",\"kind\":\"victim\",\"flake_rate\":0.5}],"
                                + "\"causes\":[{\"id\":1,\"role\":\"victim\",\"title\":\"state left by LoginTest#logsIn\","
                                + "\"tests\":[\"com.acme.shop.CartTest#isEmpty\"],\"origins\":[[\"com.acme.shop.LoginTest#logsIn\"]]}]}"));
        records.add(
                record(
                        "b.json",
                        "{\"schema_version\":1,\"run_id\":\"r2\",\"goal\":\"repair\",\"module\":\"com.acme:shop\","
                                + "\"date\":\"2026-12-01T10:00:00Z\",\"patches\":[{\"tests\":[\"com.acme.shop.CartTest#isEmpty\"],"
                                + "\"status\":\"patched\",\"patch\":\"target/odrust/repair/cause-1.patch\",\"applied\":true}]}"));
        records.add(record(
                "c.json",
                "{\"schema_version\":1,\"run_id\":\"r3\",\"goal\":\"detect\",\"module\":\"com.acme:shop\","
                        + "\"date\":\"2026-12-02T10:00:00Z\",\"commit\":\"2222222bbbb\",\"complete\":true,"
                        + "\"ran\":[\"com.acme.shop.CartTest#isEmpty\",\"com.acme.shop.LoginTest#logsIn\"]}"));
        JsonObject request = new JsonObject();
        request.add("records", records);
        JsonObject rendered = engine.call("history_report", request);
        Path page = dir.resolve("history.html");
        Files.write(page, rendered.get("html").getAsString().getBytes(StandardCharsets.UTF_8));
        String dom = HeadlessChromium.dumpDom(page, 800, dir);
        assertTrue(dom.contains("<tr data-test=\"com.acme.shop.CartTest#isEmpty\">"), dom);
        assertTrue(
                dom.contains(
                        "<td class=\"found\">50%</td><td class=\"patch\">patch</td><td class=\"not-found\">ok</td>"),
                dom);
        assertTrue(
                dom.contains(
                        "not found since r3 (commit 2222222, 2026-12-02), after target/odrust/repair/cause-1.patch (applied)"),
                dom);
        assertTrue(dom.contains("<polyline id=\"trend-tests\""), dom);
        assertTrue(
                dom.contains(
                        "odrust history: com.acme:shop: 3 runs (2 that look for flaky tests), 1 flaky test, 1 cause"),
                dom);
    }
}
