package io.github.odrust.maven.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnnotationsTest {
    @TempDir
    Path dir;

    private static final String REPORT = "{\"flaky\":[{\"test\":\"com.acme.CartTest#isEmpty\",\"kind\":\"victim\","
            + "\"failing_experiment\":6,\"reproduce\":\"mvn odrust:reproduce -Dodrust.order=target/odrust/orders/exp-6.txt\","
            + "\"flake_rate\":{\"all_orders\":0.25}}],"
            + "\"causes\":[{\"id\":1,\"role\":\"victim\",\"title\":\"state left by `com.acme.LoginTest#logsIn` → 1 victim\","
            + "\"tests\":[\"com.acme.CartTest#isEmpty\"],"
            + "\"fixes\":[{\"status\":\"patched\",\"file\":\"src/test/java/com/acme/LoginTest.java\",\"apply\":\"git apply target/odrust/repair/cause-1.patch\"}]}]}";

    @Test
    void aCauseIsAnnotatedAtItsTestsOwnFrameOfTheFailureAndItsPatchAtTheFileItChanges() throws Exception {
        Path module = dir.resolve("shop");
        Path sources = module.resolve("src/test/java");
        Files.createDirectories(sources.resolve("com/acme"));
        Files.write(
                sources.resolve("com/acme/CartTest.java"),
                "package com.acme;\n\nclass CartTest {\n    @Test\n    void isEmpty() {\n        check();\n    }\n}\n"
                        .getBytes(StandardCharsets.UTF_8));
        Path out = module.resolve("target/odrust");
        Files.createDirectories(out.resolve("detect/exp-6"));
        JsonObject event = new JsonObject();
        event.addProperty("event", "test");
        event.addProperty("test", "com.acme.CartTest#isEmpty");
        event.addProperty("outcome", "fail");
        event.addProperty(
                "trace",
                "java.lang.AssertionError\n\tat org.junit.Assert.fail(Assert.java:87)\n"
                        + "\tat com.acme.CartTest$Helper.check(CartTest.java:12)\n"
                        + "\tat com.acme.CartTest.isEmpty(CartTest.java:6)\n");
        Files.write(out.resolve("detect/exp-6/events-1.jsonl"), (event + "\n").getBytes(StandardCharsets.UTF_8));
        List<Annotations.Note> notes = Annotations.notes(
                JsonParser.parseString(REPORT).getAsJsonObject(), out, module, List.of(sources.toFile()), dir);
        assertEquals(2, notes.size());
        // the first frame of the test's own top-level class
        assertEquals(
                "::error file=shop/src/test/java/com/acme/CartTest.java,line=12,title=odrust%3A order-dependent test"
                        + " (cause 1)::com.acme.CartTest#isEmpty is a victim: state left by com.acme.LoginTest#logsIn → 1"
                        + " victim; fails in 25%25 of orders%0AReproduce: mvn odrust:reproduce"
                        + " -Dodrust.order=target/odrust/orders/exp-6.txt",
                Annotations.github(notes.get(0)));
        assertEquals(
                "::notice file=shop/src/test/java/com/acme/LoginTest.java,title=odrust%3A verified patch for cause"
                        + " 1::odrust:repair made a verified patch here for com.acme.CartTest#isEmpty; apply it with:"
                        + " git apply target/odrust/repair/cause-1.patch",
                Annotations.github(notes.get(1)));
        // without the events: the method's declaration
        Files.delete(out.resolve("detect/exp-6/events-1.jsonl"));
        notes = Annotations.notes(
                JsonParser.parseString(REPORT).getAsJsonObject(), out, module, List.of(sources.toFile()), dir);
        assertEquals(5, notes.get(0).line);
    }

    @Test
    void anUnknownKindIsRefusedWithTheKinds() {
        MojoFailureException e = assertThrows(MojoFailureException.class, () -> Annotations.kind("jenkins"));
        assertEquals(
                "odrust.annotations=jenkins is not a kind of annotation: use github (workflow commands a pull request"
                        + " shows inline) or gitlab (a Code Quality report)",
                e.getMessage());
        assertEquals(null, assertDoesNotThrowKind(""));
        assertEquals("gitlab", assertDoesNotThrowKind(" GitLab "));
    }

    private static String assertDoesNotThrowKind(String v) {
        try {
            return Annotations.kind(v);
        } catch (MojoFailureException e) {
            throw new AssertionError(e);
        }
    }
}
