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

    @Test
    void quotingFollowsSurefire() {
        // quotes inside an argument, either kind, each protecting the other
        assertEquals(
                List.of("-Dp=a b", "-Dq=say \"hi\"", "-Dr='x'"),
                ArgLine.split("-Dp='a b' '-Dq=say \"hi\"' \"-Dr='x'\""));
        // adjacent quoted and plain parts make one argument
        assertEquals(List.of("-Dpath=/a b/c d", "-ea"), ArgLine.split("-Dpath=\"/a b\"'/c d' -ea"));
        // tabs and newlines of a multi-line <argLine> separate arguments (Surefire turns them into spaces first)
        assertEquals(List.of("-Xmx1g", "-Da=1", "-Db=2"), ArgLine.split("\n    -Xmx1g\t-Da=1\r\n    -Db=2\n"));
        // an empty quoted argument is dropped, as Surefire drops it
        assertEquals(List.of("-ea"), ArgLine.split("'' -ea \"\""));
        assertThrows(IllegalArgumentException.class, () -> ArgLine.split("-Da='open"));
    }

    @Test
    void aLateReplacedValueWithSpacesIsSplitUnlessQuoted() {
        Properties p = new Properties();
        p.setProperty("agent", "-javaagent:/x/j.jar=destfile=/a b/j.exec");
        assertEquals(
                List.of("-javaagent:/x/j.jar=destfile=/a", "b/j.exec", "-Xmx64m"),
                ArgLine.split(ArgLine.replace("@{agent} -Xmx64m", p, 1).text));
        assertEquals(
                List.of("-javaagent:/x/j.jar=destfile=/a b/j.exec", "-Xmx64m"),
                ArgLine.split(ArgLine.replace("\"@{agent}\" -Xmx64m", p, 1).text));
    }
}
