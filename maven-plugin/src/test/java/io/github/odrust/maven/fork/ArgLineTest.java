package io.github.odrust.maven.fork;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ArgLineTest {
    @Test
    void lateReplacementUsesProjectPropertiesAndReportsUnknownNames() {
        Properties p = new Properties();
        p.setProperty("jacoco", "-javaagent:/x/jacoco.jar=destfile=a b");
        ArgLine.Replaced r = ArgLine.replace("@{jacoco} -Xmx64m @{missing} -Dn=${surefire.forkNumber}", p, 1);
        assertEquals("-javaagent:/x/jacoco.jar=destfile=a b -Xmx64m  -Dn=1", r.text);
        assertEquals(List.of("missing"), r.unresolved);
    }

    @Test
    void regressionALeftoverMavenExpressionIsResolvedLateOrLeftOut() {
        Properties p = new Properties();
        p.setProperty("jacocoArgLine", "-javaagent:j.jar");
        ArgLine.Replaced r = ArgLine.replace("-Xmx1g ${jacocoArgLine} ${unset}", p, 1);
        assertEquals("-Xmx1g -javaagent:j.jar ", r.text);
        assertEquals(List.of("unset"), r.unresolved);
    }

    @Test
    void splitsLikeACommandLineWithQuotes() {
        assertEquals(List.of("-Da=b c", "-Xmx1g", "-Dq=it's"), ArgLine.split("  \"-Da=b c\"   -Xmx1g -Dq=\"it's\" "));
        assertEquals(List.of(), ArgLine.split("   "));
        assertThrows(IllegalArgumentException.class, () -> ArgLine.split("-Da=\"open"));
    }
}
