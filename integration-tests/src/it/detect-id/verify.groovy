import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def slurp = { String p -> new JsonSlurper().parse(new File(basedir, p)) }

// 1 (kept aside by goal 5): five ID tests, each pinned to one call, with the repairs the engine chose
File previous = new File(basedir, 'target/odrust/id.previous-1')
assert previous.isDirectory() : "goal 5 did not keep the earlier run aside"
assert log.contains('the earlier run in') && log.contains('is kept in') : "goal 5 did not say it kept the earlier run"
def first = slurp('target/odrust/id.previous-1/report.json')
assert first.settings.seeds == [21, 22, 23]
def byTest = first.outcome.tests.collectEntries { [(it.test): it] }
def singleCall = ['com.example.CatalogTest#joinedNames', 'com.example.CatalogTest#joinedNamesUpperCase',
                  'com.example.DescriberTest#describesFieldsInOrder', 'com.example.DescriberTest#describesReadingFields',
                  'com.example.TagsTest#tagsInOrder', 'com.example.JsonTest#countsAsJson'] as Set
assert byTest.keySet() == singleCall + ['com.example.TwinTest#sameTextEachTime'] : "reported: " + byTest.keySet()
assert byTest.values().every { it.status == 'id' && it.pin.invocation != null }
// under the even seed every shuffled call changes: each single-call test fails there; an odd
// seed may leave a call of 3 elements as it was (JsonTest's map under 21)
assert singleCall.every { byTest[it].failing_seeds.contains(22) && byTest[it].needs == 'another-order' } : byTest.values()*.failing_seeds
// two calls of two elements: they disagree only under odd seeds; alike, the test passes
def twin = byTest['com.example.TwinTest#sameTextEachTime']
// (which odd seeds: where its calls' numbers fall, which the tests before it move)
assert !twin.failing_seeds.isEmpty() && twin.failing_seeds.every { it in [21, 23] } && twin.needs == 'calls-to-disagree' : twin
assert twin.reason.contains('it fails only when two of its calls return different orders') : twin.reason
assert log =~ /\[id \d+\] consistent seed 2[13] as call \d+: TwinTest#sameTextEachTime: all pass/ : "no consistent run of TwinTest, or it failed"
assert log =~ /\[id \d+\] consistent seed 2[123] as call \d+: TagsTest#tagsInOrder: 1 failed/ : "no consistent run of TagsTest#tagsInOrder, or it passed"

// runs alone went to shared JVMs (the default, odrust.id.isolation=classloader); each pin they
// found ran again in a fresh JVM (confirm-pin) before it was reported
def firstExps = new File(previous, 'experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new groovy.json.JsonSlurper().parseText(it) }
assert firstExps.any { it.shared } : "no run alone in a shared JVM"
assert firstExps.findAll { it.kind in ['clean', 'shuffled', 'confirm', 'confirm-pin', 'consistent'] }.every { !it.shared } : "a claim ran in a shared JVM"
def confirmed = firstExps.findAll { it.kind == 'confirm-pin' }*.test as Set
assert confirmed.containsAll(singleCall) : "pins confirmed fresh: " + confirmed
// a one-call pin is confirmed by its site's call (only-call), whatever number a fresh JVM gives
// it, and the verdict is pinned to the number the fresh JVM gave
firstExps.findAll { it.kind == 'confirm-pin' && it.test in singleCall }.each { e ->
    assert e.only_call != null && e.only_call.nth >= 1 && e.only_call.site.contains(' at com.example.') : e
    assert e.only == [] && e.calls.size() == 1 && e.calls[0].nth == e.only_call.nth : e
    assert e.only_call.site.startsWith(e.calls[0].api + ' at ' + e.calls[0].at['class'] + '.' + e.calls[0].at.method + ':') : e
}
// a pin whose fresh confirmation counted one call: that run was the consistent run already
def oneCallConfirmed = firstExps.findAll { e -> e.kind == 'confirm-pin' && e.count == 1 }*.test as Set
assert oneCallConfirmed.contains('com.example.CatalogTest#joinedNames') : oneCallConfirmed
oneCallConfirmed.each { t ->
    assert !firstExps.any { it.kind == 'consistent' && it.test == t } : "a consistent run of " + t
    assert byTest[t].needs == 'another-order' && byTest[t].reason.contains('counted no other call') : byTest[t]
}
assert log =~ /odrust detect-id: \d+ runs alone ran in \d+ shared JVMs? \(fresh class loaders\)/ : "the shared JVMs are not reported"

def joined = byTest['com.example.CatalogTest#joinedNames']
assert joined.pin.call.api == 'HashMap$KeySet.iterator'
assert joined.pin.call.at.class == 'com.example.Catalog' && joined.pin.call.at.method == 'joined' && joined.pin.call.at.line == 25
assert joined.pin.call.alloc.type == 'HashSet' && joined.pin.call.alloc.at.line == 14 : "the HashSet's allocation: " + joined.pin.call
assert joined.repairs[0].strategy == 'HashToLinkedHash' && joined.repairs[0].line == 14

def fields = byTest['com.example.DescriberTest#describesFieldsInOrder']
assert fields.pin.call.api == 'Class.getDeclaredFields' && fields.pin.call.at.class == 'com.example.Describer'
// FieldByName first (it finds no index at Describer's loop over the fields), then SortFields
assert fields.repairs*.strategy.take(2) == ['FieldByName', 'SortFields'] && fields.repairs[1].target == 'getDeclaredFields' : fields.repairs

def tags = byTest['com.example.TagsTest#tagsInOrder']
assert tags.pin.call.at.class == 'com.example.TagsTest' : "AssertJ's iteration is pinned to the test's line: " + tags.pin.call
// the test's own assertion first, as DexFix orders them; no JSONAssertion for a failure that shows no JSON
assert tags.repairs*.strategy == ['ChangeContainsExactly', 'HashToLinkedHash'] : tags.repairs*.strategy

def xml = new XmlSlurper().parse(new File(previous, 'surefire-reports/TEST-odrust-id.xml'))
assert xml.testcase.findAll { it.failure.size() > 0 }.size() == 7

def json = byTest['com.example.JsonTest#countsAsJson']
assert json.pin.call.api == 'HashMap$EntrySet.iterator' && json.pin.call.at.class == 'com.example.Json'
// an anonymous subclass of HashMap (double braces): no plain HashMap's allocation to name (the
// repair-id-collectors IT checks one a collector made); the map is iterated by the module's code,
// not by an assertion library: no ChangeContainsExactly either
assert json.pin.call.alloc == null : json.pin.call
assert json.repairs*.strategy == ['JSONAssertion']
assert !json.pin.call.assertion && tags.pin.call.assertion : "AssertJ made TagsTest's call: " + tags.pin.call
assert new File(previous, 'report.html').text.contains('com.example.DescriberTest#describesFieldsInOrder')
assert log.contains("-Dodrust.order='com.example.CatalogTest#joinedNames' -Dodrust.id.seed=21 -Dodrust.id.only=1") : "no reproduce command"

// 2: the reproduce command fails the test and names the call
assert log =~ /FAIL\s+com\.example\.CatalogTest#joinedNames/
assert log.contains('call 1: HashMap$KeySet.iterator at com.example.Catalog.joined(Catalog.java:25)')

// 3: six tests patched, none applied; the two of Catalog.joined share one patch, verified with
// both run together; so do the two of Describer.fieldNames, whose patch also rewrites the
// expected text of the test written for the JDK's order (SortFields plus the updated expectation).
// The original order ran once with the five patches found, broke TwinTest#namesAreAPlainHashSet,
// and was halved down to TwinTest's patch (a LinkedHashSet), which is not offered.
def repairs = slurp('target/odrust/repair/id-repair.json').repairs.collectEntries { [(it.test): it] }
assert repairs.findAll { k, v -> k != 'com.example.TwinTest#sameTextEachTime' }.values()*.status == ['patched'] * 6 : repairs
def twinRepair = repairs['com.example.TwinTest#sameTextEachTime']
assert twinRepair.status == 'rejected' && twinRepair.tried.size() == 1 : twinRepair
assert twinRepair.tried[0].why.endsWith('passes alone, but in the module\'s original order it makes 1 test that passes without it fail: com.example.TwinTest#namesAreAPlainHashSet') : twinRepair.tried
assert log.contains('odrust repair: the original order with 5 patches applied together') : "the patches did not run together"
assert log =~ /the original order with 5 patches together \([^)]*\): it makes 1 test that passes without them fail; halving them/
assert log.contains('[repair TwinTest#sameTextEachTime] its patch makes 1 test that passes without it fail in the original order; searching again without it')
assert repairs.values().findAll { it.status == 'patched' }.every { it.original_order_with >= 1 } : repairs
// each offered patch applies as written (git apply --check in a scratch copy), and the command
// printed for it applies it from where mvn ran (checked here with --check -v: nothing changes, and
// a patch git skips, as it does for paths outside the repository's top, says so)
def offered = repairs.values().findAll { it.status == 'patched' }
assert offered.every { it.applies.reason == null && it.applies.checker == 'git apply --check' } : offered*.applies
offered.each { r ->
    assert log.contains('not applied; to apply it: ' + r.apply) : "the command is not printed: " + r.apply
    def p = ['sh', '-c', r.apply.replaceFirst('^git apply ', 'git apply --check -v ')].execute(null, basedir)
    def so = new StringBuilder(); def se = new StringBuilder()
    p.waitForProcessOutput(so, se)
    assert p.exitValue() == 0 && !(so.toString() + se).contains('Skipped') : r.apply + ': ' + so + se
}
// a half that passed: its patches were offered with it, without a run of their own
assert repairs.values().any { it.original_order_with >= 2 } : repairs*.value*.original_order_with
// runs of the original order: the five together, then the halves (a half whose other half passed
// is not run whole), never more than one run per patch as before
// (Catalog's and Describer's patches pass together; then Json's, Tags' and Twin's alone: 5 runs,
// as many as one per patch, the most halving costs for one breaking patch of five)
File repairDir = new File(basedir, 'target/odrust/repair/id')
def orderRuns = []
repairDir.eachFileRecurse { if (it.name == 'original-order' && it.isDirectory() && it.parentFile != repairDir) orderRuns << it }
assert orderRuns.size() == 5 : "original-order runs with patches: " + orderRuns
def upper = repairs['com.example.CatalogTest#joinedNamesUpperCase']
assert upper.patch == repairs['com.example.CatalogTest#joinedNames'].patch && upper.source == 'HashToLinkedHash'
assert upper.shared_with == ['com.example.CatalogTest#joinedNames'] : upper
assert log.contains('2 ID tests pinned to one call site (HashToLinkedHash at Catalog.java:14): trying one patch for all of them')
assert log.contains('one patch for 2 tests: com.example.CatalogTest#joinedNames, com.example.CatalogTest#joinedNamesUpperCase')
assert log =~ /odrust repair: 4 verified patches for 7 implementation-dependent tests/ : "the closing line"
// an estimate from detect-id's runs at the start, the time left at each repair, both in id-repair.json
assert log =~ /odrust repair: 7 ID tests, 5 repairs to verify, predicted ~[\d.]+ s \(each: its first candidate's runs alone at/
assert log =~ /odrust repair: repair 5 of 5, ~[\d.]+ s left/
def estimate = slurp('target/odrust/repair/id-repair.json').estimate
assert estimate.repairs == 5 && estimate.predicted_ms > 0 && estimate.actual_ms > 0 : estimate
def reading = repairs['com.example.DescriberTest#describesReadingFields']
assert reading.source == 'SortFields' && reading.patch == repairs['com.example.DescriberTest#describesFieldsInOrder'].patch : reading
assert reading.shared_with == ['com.example.DescriberTest#describesFieldsInOrder'] : reading
assert reading.files == ['src/main/java/com/example/Describer.java', 'src/test/java/com/example/DescriberTest.java'] : reading
assert reading.description.contains('plus the expected values of the tests\' failing assertions updated') : reading.description
String readingPatch = new File(reading.patch).text
assert readingPatch.contains('-        assertEquals("zeta,alpha,mid", Describer.fieldNames(Reading.class));') : readingPatch
assert readingPatch.contains('+        assertEquals("alpha,mid,zeta", Describer.fieldNames(Reading.class));') : readingPatch
assert readingPatch.contains('+        for (Field f : java.util.Arrays.stream(type.getDeclaredFields()).sorted(') : readingPatch
assert !readingPatch.contains('a,b,c,d') : "the test that passes with the sorted fields keeps its literal"
// git apply from the fixture's folder; the ceiling keeps git from finding the odrust repository
// around target/it (in a subfolder of a repository git apply silently skips a git-style patch)
def gitEnv = System.getenv().collect { k, v -> k + '=' + v } + ['GIT_CEILING_DIRECTORIES=' + basedir.absoluteFile.parentFile.path]
def applies = ['git', 'apply', '--check', '-v', reading.patch].execute(gitEnv, basedir)
def so = new StringBuilder()
def se = new StringBuilder()
applies.waitForProcessOutput(so, se)
assert applies.exitValue() == 0 : "the patch does not apply: " + so + se
assert (so.toString() + se).contains('Checking patch src/main/java/com/example/Describer.java') && (so.toString() + se).contains('Checking patch src/test/java/com/example/DescriberTest.java') : "git apply did not check both files: " + so + se
assert log.contains('DescriberTest.java: UpdateExpected: the expected string at line 20 becomes "alpha,mid,zeta"') : "the update is not logged"

assert repairs['com.example.CatalogTest#joinedNames'].source == 'HashToLinkedHash'
assert repairs['com.example.DescriberTest#describesFieldsInOrder'].source == 'SortFields'
assert repairs['com.example.TagsTest#tagsInOrder'].source == 'ChangeContainsExactly'
assert repairs['com.example.TagsTest#tagsInOrder'].tried == [] : "the assertion was not tried first: " + repairs['com.example.TagsTest#tagsInOrder'].tried
assert repairs['com.example.JsonTest#countsAsJson'].source == 'JSONAssertion'
// an anonymous HashMap subclass: the agent saw no allocation of a plain HashMap, so JSONAssertion
// is the only choice
assert repairs['com.example.JsonTest#countsAsJson'].tried == [] : repairs['com.example.JsonTest#countsAsJson'].tried
String jsonPatch = new File(repairs['com.example.JsonTest#countsAsJson'].patch).text
assert jsonPatch.contains('+        assertEquals(com.google.gson.JsonParser.parseString(') : jsonPatch
assert repairs.values().findAll { it.status == 'patched' }.every { !it.applied && it.verified_seeds.size() > 3 }
String patch = new File(repairs['com.example.CatalogTest#joinedNames'].patch).text
assert patch.contains('+        Set<String> names = new LinkedHashSet<>();') && patch.contains('+import java.util.LinkedHashSet;')
// Catalog names HashSet nowhere else: its import goes (checkstyle's UnusedImports would fail the build)
assert patch.contains('-import java.util.HashSet;\n+import java.util.LinkedHashSet;\n') : patch
assert new File(basedir, 'src/main/java/com/example/Catalog.java').text.contains('new HashSet<>()') : "a source was changed"
assert new File(basedir, 'src/test/java/com/example/TagsTest.java').text.contains('.containsExactly(')

// 4: same settings: resumed, nothing ran again (so its report has no phase of its own)
assert log =~ /resuming after \d+ experiments/
assert first.phases == [] : first.phases

// 5: one even seed: the single-call tests, not the one that needs two calls to disagree; every
// run in a fresh JVM (odrust.id.isolation=fresh)
def last = slurp('target/odrust/id/report.json')
def lastExps = new File(basedir, 'target/odrust/id/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new groovy.json.JsonSlurper().parseText(it) }
assert lastExps.every { !it.shared } && lastExps.every { it.kind != 'confirm-pin' } : "isolation=fresh ran a run in a shared JVM"
assert last.settings.seeds == [8]
assert last.outcome.tests*.test as Set == singleCall

// each phase of this run as predicted against taken (docs/id-tests.md, "Estimates"): phase 1
// priced after its first run, the searches at their start from phase 1's runs
def phases = last.phases.collectEntries { [(it.phase): it] }
assert phases.keySet() == ['phase 1', 'searches'] as Set : last.phases
assert phases['phase 1'].experiments == 2 && phases['phase 1'].actual_ms > 0 && phases['phase 1'].predicted_ms_after_first > 0 : phases
def searches = phases['searches']
assert searches.experiments == lastExps.size() - 2 && searches.actual_ms > 0 : searches
assert searches.predicted_ms > 0 : searches
def said = (log =~ /odrust detect-id: (\d+) tests failed under a seed; predicted ~(\d+) experiments \(~[0-9.]+ (s|min): from each test's counted calls, [0-9.]+ s each\)/).collect { it }
assert !said.isEmpty() : "no priced prediction of the searches from the tests' calls"
def (whole, candidates, predicted, unit) = said.last()
// at least 2 a test (alone, clean and under a seed), at most the budget of 30
assert candidates as int >= singleCall.size() && (predicted as int) >= 2 * (candidates as int) && (predicted as int) <= 30 * (candidates as int) : whole
assert searches.predicted_experiments == predicted as int : searches
// what it rests on: each test's counted calls in phase 1's runs, from the agent's test events
def phase1Runs = lastExps.findAll { it.kind in ['clean', 'shuffled'] }
assert phase1Runs.size() == 2 && phase1Runs.every { e -> e.results.every { it.calls != null } && e.results.sum { it.calls } <= e.count } : phase1Runs*.results
assert phase1Runs.every { e -> e.results.any { it.calls > 0 } } : phase1Runs*.results
// a test whose run alone counted one call is classified by that run: no consistent run
def lastByTest = last.outcome.tests.collectEntries { [(it.test): it] }
def oneCall = lastExps.findAll { e -> e.kind == 'alone' && e.count == 1 && e.results.any { it.test == e.test && it.outcome != 'pass' } }*.test as Set
assert !oneCall.isEmpty() : "no test pinned by a run alone that counted one call"
oneCall.each { t ->
    assert !lastExps.any { it.kind == 'consistent' && it.test == t } : "a consistent run of " + t
    assert lastByTest[t].needs == 'another-order' && lastByTest[t].reason.contains('counted no other call') : lastByTest[t]
}
// and again once the first test's search ended, from its experiments and their time
def again = (log =~ /odrust detect-id: after the first test's search \((\d+) experiments? in [0-9.]+ s\): predicted ~(\d+) experiments? in ~\d+ s in all/).collect { it }
if (last.outcome.tests.size() > 1) {
    assert !again.isEmpty() : "no prediction after the first test's search"
    def (line, firstSearch, total) = again.last()
    assert searches.predicted_experiments_after_first == total as int : searches
    assert (total as int) >= (firstSearch as int) + last.outcome.tests.size() - 1 : line
    assert searches.predicted_ms_after_first > 0 : searches
}
