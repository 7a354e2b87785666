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
        String base = Diagnoser.fingerprint("code", settings(200, "com.acme.", "org.x."));
        assertEquals(base, Diagnoser.fingerprint("code", settings(200, "org.x.", "com.acme.")), "order of prefixes");
        assertNotEquals(base, Diagnoser.fingerprint("code", settings(200, "com.acme.")), "another include");
        assertNotEquals(base, Diagnoser.fingerprint("code", settings(100, "com.acme.", "org.x.")), "another limit");
        assertNotEquals(base, Diagnoser.fingerprint("other", settings(200, "com.acme.", "org.x.")), "other code");
    }
}
