package io.github.odrust.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;

/** odrust.dependenceFree still works under its old name, with a deprecation line. */
class RenamedPropertyTest {
    private static final class Recording extends SystemStreamLog {
        final List<String> warnings = new ArrayList<>();

        @Override
        public void warn(CharSequence content) {
            warnings.add(content.toString());
        }
    }

    private static String renamed(String value, String oldValue, Recording log) {
        return DetectMojo.renamed(value, "odrust.dependence.free", oldValue, "odrust.dependenceFree", log);
    }

    @Test
    void theNewNameNeedsNoWarning() {
        Recording log = new Recording();
        assertEquals("p.C#F", renamed("p.C#F", null, log));
        assertNull(renamed(null, null, log));
        assertEquals(List.of(), log.warnings);
    }

    @Test
    void theOldNameStillWorksWithADeprecationLine() {
        Recording log = new Recording();
        assertEquals("p.C#F", renamed(null, "p.C#F", log));
        assertEquals(List.of("odrust.dependenceFree is deprecated; use odrust.dependence.free"), log.warnings);
    }

    @Test
    void theNewNameWinsOverTheOldOne() {
        Recording log = new Recording();
        assertEquals("new#F", renamed("new#F", "old#F", log));
        assertEquals(
                List.of(
                        "odrust.dependenceFree is deprecated; use odrust.dependence.free",
                        "odrust.dependenceFree is ignored: odrust.dependence.free is given too"),
                log.warnings);
    }
}
