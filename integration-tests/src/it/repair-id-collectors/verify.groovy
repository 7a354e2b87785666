import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def slurp = { String p -> new JsonSlurper().parse(new File(basedir, p)) }

// 1: the two tests that assume a collector's order, each pinned to its own line; the HashSet and
// the HashMap were allocated in JDK code, seen at Roster's collect(...) line
def report = slurp('target/odrust/id/report.json')
def byTest = report.outcome.tests.collectEntries { [(it.test): it] }
assert byTest.keySet() == ['com.example.RosterTest#initialsInOrder', 'com.example.RosterTest#groupsInOrder', 'com.example.RosterTest#upperTagsInOrder'] as Set : byTest.keySet()
def firstRepair = { String test -> byTest['com.example.RosterTest#' + test].repairs[0] }
assert byTest.values().every { it.status == 'id' && it.pin.call.at.class == 'com.example.RosterTest' } : byTest
def set = firstRepair('initialsInOrder')
assert set.strategy == 'HashToLinkedHash' && set.target == 'HashSet' && set.class == 'com.example.Roster' && set.line == 16 : set
def map = firstRepair('groupsInOrder')
assert map.strategy == 'HashToLinkedHash' && map.target == 'HashMap' && map.class == 'com.example.Roster' && map.line == 21 : map
def tags = firstRepair('upperTagsInOrder')
assert tags.strategy == 'HashToLinkedHash' && tags.target == 'HashSet' && tags.class == 'com.example.Tags' && tags.line == 18 : tags

// 2: a supplier for each collector, verified, offered and not applied
def repairs = slurp('target/odrust/repair/id-repair.json').repairs.collectEntries { [(it.test): it] }
assert repairs.size() == 3 : repairs.keySet()
repairs.values().each { r ->
    assert r.status == 'patched' && r.source == 'HashToLinkedHash' && !r.applied && r.verified_seeds.size() > 3 : r
    assert r.file == (r.test.endsWith('upperTagsInOrder') ? 'src/main/java/com/example/Tags.java' : 'src/main/java/com/example/Roster.java') && r.files == null : r
}
String toSet = new File(repairs['com.example.RosterTest#initialsInOrder'].patch).text
assert toSet.contains('-                .collect(Collectors.toSet());') : toSet
assert toSet.contains('+                .collect(Collectors.toCollection(LinkedHashSet::new));') : toSet
assert toSet.contains('+import java.util.LinkedHashSet;') : toSet
String grouping = new File(repairs['com.example.RosterTest#groupsInOrder'].patch).text
assert grouping.contains('+        return members.stream().collect(Collectors.groupingBy(String::length, LinkedHashMap::new, Collectors.toList()));') : grouping
assert log.contains('HashToLinkedHash: Collectors.toSet() at line 16 becomes toCollection(LinkedHashSet::new), whose set iterates in insertion order')
// the tags' set is collected from another HashSet: the collector's LinkedHashSet alone still fails
// under a seed, and the repair follows the order to the set it streams (DexFix's loop)
String upper = new File(repairs['com.example.RosterTest#upperTagsInOrder'].patch).text
assert upper.contains('+        Set<String> unique = new LinkedHashSet<>(tags);') : upper
assert upper.contains('+                .collect(Collectors.toCollection(LinkedHashSet::new));') : upper
assert upper.contains('-import java.util.HashSet;') && upper.contains('+import java.util.LinkedHashSet;') : upper
assert log =~ /\[repair RosterTest#upperTagsInOrder\] HashToLinkedHash: seed -?\d+ still fails it; the order also comes from Tags.java:15: new HashSet<>\(...\) at line 15 becomes new LinkedHashSet<>\(...\)/
assert repairs['com.example.RosterTest#upperTagsInOrder'].description =~ /^Collectors.toSet\(\) at line 18 becomes toCollection\(LinkedHashSet::new\).*; then, as seed -?\d+ still failed it, new HashSet<>\(...\) at line 15 becomes new LinkedHashSet<>\(...\).* in Tags.java/
assert log.contains('odrust repair: 3 verified patches for 3 implementation-dependent tests')
assert new File(basedir, 'src/main/java/com/example/Roster.java').text.contains('.collect(Collectors.toSet());') : 'a source was changed'

// both patches add an import before the same line: all.patch adds both, sorted
String all = new File(basedir, 'target/odrust/repair/id/all.patch').text
assert all.contains('+import java.util.LinkedHashMap;\n+import java.util.LinkedHashSet;\n import java.util.List;') : all

// the patches together apply as written from the fixture's folder (the ceiling keeps git from
// finding the odrust repository around target/it)
def gitEnv = System.getenv().collect { k, v -> k + '=' + v } + ['GIT_CEILING_DIRECTORIES=' + basedir.absoluteFile.parentFile.path]
def applies = ['git', 'apply', '--check', '-v', 'target/odrust/repair/id/all.patch'].execute(gitEnv, basedir)
def so = new StringBuilder()
def se = new StringBuilder()
applies.waitForProcessOutput(so, se)
assert applies.exitValue() == 0 && (so.toString() + se).contains('Checking patch src/main/java/com/example/Roster.java') && (so.toString() + se).contains('Checking patch src/main/java/com/example/Tags.java') : "the patch does not apply: " + so + se
