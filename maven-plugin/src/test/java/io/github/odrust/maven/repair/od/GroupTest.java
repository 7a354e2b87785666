package io.github.odrust.maven.repair.od;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.repair.RepairFile;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GroupTest {
    private static Report report() {
        JsonObject json = JsonParser.parseString("{'module':'g:a','flaky':["
                        + "{'test':'p.A#one','kind':'victim','polluters':[['p.P#p']],"
                        + "  'cleaners':{'p.P#p':['p.C#c']}},"
                        + "{'test':'p.B#two','kind':'victim','polluters':[['p.P#p']],"
                        + "  'cleaners':{'p.P#p':['p.D#d','p.C#c']}},"
                        + "{'test':'p.A#three','kind':'victim','polluters':[['p.P#p']]},"
                        + "{'test':'p.X#alone','kind':'victim','polluters':[['p.Q#q']]}],"
                        + "'causes':[{'id':1,'role':'victim','title':'t','tests':['p.A#one','p.B#two','p.A#three']},"
                        + "{'id':2,'role':'victim','title':'t','tests':['p.X#alone']}]}")
                .getAsJsonObject();
        return Report.of(json);
    }

    private static List<String> tests(Group g) {
        return g.members.stream().map(m -> m.test).collect(Collectors.toList());
    }

    @Test
    void targetsAreGroupedByTheirCauseWithTheCleanersOfMoreTestsFirst() {
        Report r = report();
        List<Group> groups = Group.of(r, r.summary.flaky);
        assertEquals(2, groups.size());
        Group cause = groups.get(0);
        assertEquals(List.of("p.A#one", "p.B#two", "p.A#three"), tests(cause));
        assertEquals(Map.of("p.P#p", List.of("p.C#c", "p.D#d")), cause.cleaners());
        assertEquals(List.of("p.C#c", "p.D#d"), List.copyOf(cause.fixTests()));
        assertEquals("cause-1.patch", cause.patchName());
        assertEquals("p.A#one and 2 other tests of cause 1", cause.label());
        assertEquals("cause-2.patch", groups.get(1).patchName());
        assertEquals("p.X#alone", groups.get(1).label());

        RepairFile.Entry e = new RepairFile.Entry("p.A#one", "victim");
        cause.describe(e);
        assertEquals(1, e.cause);
        assertEquals(List.of("p.A#one", "p.B#two", "p.A#three"), e.members);
        assertNull(e.split);
    }

    @Test
    void aCauseSplitsByClassThenByTestAndItsPartsNameTheirFirstTest() {
        Report r = report();
        Group cause = Group.of(r, r.summary.flaky).get(0);
        List<Group> byClass = cause.split();
        assertEquals(
                List.of(List.of("p.A#one", "p.A#three"), List.of("p.B#two")),
                byClass.stream().map(GroupTest::tests).collect(Collectors.toList()));
        assertEquals("cause-1-p.A#one.patch", byClass.get(0).patchName());
        List<Group> byTest = byClass.get(0).split();
        assertEquals(
                List.of(List.of("p.A#one"), List.of("p.A#three")),
                byTest.stream().map(GroupTest::tests).collect(Collectors.toList()));
        // One test of a cause asked for alone (-Dodrust.test) is a part, not the whole cause.
        List<Summary.FlakyTest> one = List.of(r.summary.flaky.get(1));
        Group part = Group.of(r, one).get(0);
        assertEquals("cause-1-p.B#two.patch", part.patchName());
    }
}
