package io.github.odrust.maven.repair.od;

import io.github.odrust.engine.protocol.Cause;
import io.github.odrust.engine.protocol.Summary;
import io.github.odrust.maven.detect.Report;
import io.github.odrust.maven.repair.RepairFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tests one repair makes one patch for: a root cause of report.json ({@code causes}), or a
 * part of one that a single patch could not fix whole (split by class, then test by test).
 */
final class Group {
    /** The cause's number in report.json. */
    final int cause;
    /** Its tests, in report order; the first is the one the planner's records name. */
    final List<Summary.FlakyTest> members;
    /** Whether these are all the tests of the cause. */
    final boolean whole;
    /** Why the cause was split, for a part of one. */
    String split;
    /**
     * For a part of a split cause: the whole-body runs of the repairs before its split, which
     * it need not run again where they left all its tests failing ({@link WholeRuns}).
     */
    List<WholeRuns.Run> inherited = List.of();
    /** The whole-body runs of this group's own repair, once it ran. */
    List<WholeRuns.Run> ran = List.of();

    /** Whether its repair has records at its fingerprint: a candidate ran (or took another's results, or did not compile). */
    boolean recorded;

    private Group(int cause, List<Summary.FlakyTest> members, boolean whole) {
        this.cause = cause;
        this.members = members;
        this.whole = whole;
    }

    /**
     * The targets grouped by their cause in {@code report}, in report order; a target in no cause
     * (a report without causes) is a group of its own.
     */
    static List<Group> of(Report report, List<Summary.FlakyTest> targets) {
        Map<Integer, List<Summary.FlakyTest>> byCause = new LinkedHashMap<>();
        Map<Integer, Integer> sizes = new LinkedHashMap<>();
        int alone = -1;
        for (Summary.FlakyTest t : targets) {
            Cause c = report.causeOf(t.test);
            int id = c == null ? alone-- : c.id;
            sizes.put(id, c == null ? 1 : c.tests.size());
            byCause.computeIfAbsent(id, k -> new ArrayList<>()).add(t);
        }
        List<Group> groups = new ArrayList<>();
        byCause.forEach(
                (id, members) -> groups.add(new Group(Math.max(id, 0), members, members.size() == sizes.get(id))));
        return groups;
    }

    /** Its parts: one per class when its tests are in several, else one per test. */
    List<Group> split() {
        Map<String, List<Summary.FlakyTest>> byClass = new LinkedHashMap<>();
        for (Summary.FlakyTest m : members) {
            byClass.computeIfAbsent(m.test.substring(0, m.test.indexOf('#')), k -> new ArrayList<>())
                    .add(m);
        }
        List<Group> parts = new ArrayList<>();
        if (byClass.size() > 1) {
            byClass.values().forEach(ms -> parts.add(new Group(cause, ms, false)));
        } else {
            members.forEach(m -> parts.add(new Group(cause, List.of(m), false)));
        }
        return parts;
    }

    /**
     * The tests a patch can come from: every member's cleaners (victims), those of more members
     * first, or its single state-setters (brittles).
     */
    Set<String> fixTests() {
        Set<String> tests = new LinkedHashSet<>();
        if ("victim".equals(members.get(0).kind)) {
            cleaners().values().forEach(tests::addAll);
        } else {
            for (Summary.FlakyTest m : members) {
                m.stateSetters.stream().filter(g -> g.size() == 1).forEach(g -> tests.add(g.get(0)));
            }
        }
        return tests;
    }

    /** Per single polluter, the cleaners found for any member, those found for more members first. */
    Map<String, List<String>> cleaners() {
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        for (Summary.FlakyTest m : members) {
            if (m.cleaners == null) {
                continue;
            }
            m.cleaners.forEach((polluter, found) -> {
                Map<String, Integer> c = counts.computeIfAbsent(polluter, k -> new LinkedHashMap<>());
                found.forEach(f -> c.merge(f, 1, Integer::sum));
            });
        }
        Map<String, List<String>> cleaners = new LinkedHashMap<>();
        counts.forEach((polluter, c) -> {
            List<String> ranked = new ArrayList<>(c.keySet());
            ranked.sort((a, b) -> c.get(b) - c.get(a)); // stable: ties keep the first member's order
            cleaners.put(polluter, ranked);
        });
        return cleaners;
    }

    /** "p.VTest#a" or "p.VTest#a and 11 other tests of cause 2": what messages and comments name. */
    String label() {
        String first = members.get(0).test;
        if (members.size() == 1) {
            return first;
        }
        return first + " and " + (members.size() - 1) + " other test" + (members.size() == 2 ? "" : "s")
                + (cause > 0 ? " of cause " + cause : "");
    }

    /**
     * What the progress line says a repair of these tests is: "cause 2", "cause 1, 9 of its
     * tests" for a part of a split one, the test's short name for a test of no cause.
     */
    String about() {
        if (cause <= 0) {
            String first = members.get(0).test;
            return first.substring(first.lastIndexOf('.', first.indexOf('#')) + 1);
        }
        return "cause " + cause
                + (whole ? "" : ", " + (members.size() == 1 ? "1 of its tests" : members.size() + " of its tests"));
    }

    /** {@code cause-N.patch} for a whole cause, {@code cause-N-<first test>.patch} for a part. */
    String patchName() {
        if (cause <= 0) {
            return RepairFile.patchName(members.get(0).test);
        }
        return whole ? "cause-" + cause + ".patch" : "cause-" + cause + "-" + RepairFile.patchName(members.get(0).test);
    }

    /** Its tests' ids. */
    List<String> tests() {
        List<String> tests = new ArrayList<>();
        members.forEach(m -> tests.add(m.test));
        return tests;
    }

    /** Says in {@code entry} which tests and cause it is for. */
    void describe(RepairFile.Entry entry) {
        entry.cause = cause > 0 ? cause : null;
        entry.members = new ArrayList<>();
        members.forEach(m -> entry.members.add(m.test));
        entry.split = split;
    }
}
