package io.github.odrust.maven.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class DiagnoserFingerprintTest {
    private static Diagnoser.Settings settings(int limit, String... include) {
        Diagnoser.Settings s = new Diagnoser.Settings();
        s.captureLimit = limit;
        s.include.addAll(java.util.List.of(include));
        return s;
    }

    @Test
    void whatACaptureHoldsIsPartOfWhatARecordIsAFactAbout() {
        String base = Diagnoser.fingerprint("code", settings(200, "com.acme.", "org.x."), java.util.List.of());
        assertEquals(
                base,
                Diagnoser.fingerprint("code", settings(200, "org.x.", "com.acme."), java.util.List.of()),
                "order of prefixes");
        assertNotEquals(
                base,
                Diagnoser.fingerprint("code", settings(200, "com.acme."), java.util.List.of()),
                "another include");
        assertNotEquals(
                base,
                Diagnoser.fingerprint("code", settings(100, "com.acme.", "org.x."), java.util.List.of()),
                "another limit");
        assertNotEquals(
                base,
                Diagnoser.fingerprint("other", settings(200, "com.acme.", "org.x."), java.util.List.of()),
                "other code");
        assertNotEquals(
                base,
                Diagnoser.fingerprint(
                        "code",
                        settings(200, "com.acme.", "org.x."),
                        java.util.List.of(new java.io.File("/r/util-1.jar"))),
                "another jar of the project captured");
    }
}
