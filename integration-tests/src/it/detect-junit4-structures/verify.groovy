import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def P = 'com.example.structures.'
def VICTIM_A = P + 'CacheCheckTest#startsEmpty'      // (a) cross-class victim
def POLLUTER_A = P + 'CacheFillTest#fills'
def CLEANER_A = P + 'CacheFlushTest#flushes'
def VICTIM_B = P + 'LocalStateTest#startsClean'      // (b) intra-class victim
def POLLUTER_B = P + 'LocalStateTest#marksDirty'
def BRITTLE_C = P + 'ConfigUseTest#needsLoadedConfig' // (c) brittle
def SETTER_C = P + 'ConfigInitTest#loads'
def NOT_IDEMPOTENT = P + 'IdempotenceTest#countsOnce' // (d) never reported

File out = new File(basedir, 'target/odrust')
File reportFile = new File(out, 'report.json')
assert reportFile.isFile() : "missing " + reportFile
def report = new JsonSlurper().parse(reportFile)

// ---- report.json header
assert report.schema_version == 2 : "schema_version: " + report.schema_version
assert report.module == 'com.example:detect-junit4-structures' : "module: " + report.module
assert report.seed == 7 : "seed: " + report.seed
assert report.strategy == 'targeted' : "strategy: " + report.strategy
assert report.tests_total == 17 : "tests_total: " + report.tests_total
assert report.rounds_planned == 16 : "rounds_planned: " + report.rounds_planned
assert report.rounds_run == 16 : "rounds_run: " + report.rounds_run
assert report.failing == [] : "nothing fails in the original order: " + report.failing
assert report.experiments instanceof Number && report.experiments > 16 : "experiments: " + report.experiments

// ---- experiments.jsonl: one line per experiment, ids unique, `rounds_run` rounds
File jsonl = new File(out, 'detect/experiments.jsonl')
assert jsonl.isFile() : "missing " + jsonl
def exps = jsonl.readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert exps.size() == report.experiments : "experiments.jsonl has " + exps.size() + " lines, report says " + report.experiments
assert exps*.id.unique(false).size() == exps.size() : "duplicate experiment ids: " + exps*.id
assert exps.count { it.kind == 'round' } == report.rounds_run : "round experiments: " + exps.count { it.kind == 'round' }
assert exps.count { it.kind == 'baseline' } >= 1 : "no baseline experiment"
assert exps.count { it.kind == 'alone' } == 3 * 3 : "alone experiments (3 OD tests x 3): " + exps.count { it.kind == 'alone' }

// ---- exactly the three OD tests, with the right kinds, sorted by id
def kinds = report.flaky.collectEntries { [(it.test): it.kind] }
assert kinds == [(VICTIM_A): 'victim', (VICTIM_B): 'victim', (BRITTLE_C): 'brittle'] : "flaky: " + kinds
assert report.flaky*.test == report.flaky*.test.sort(false) : "flaky not sorted by test id: " + report.flaky*.test
assert !kinds.containsKey(NOT_IDEMPOTENT) : "a non-idempotent test without a polluter was reported"

// the tests of an order file (comments and blank lines dropped)
def orderOf = { String rel ->
    File f = new File(basedir, rel)
    assert f.isFile() : "missing order file " + rel
    f.readLines('UTF-8').collect { it.trim() }.findAll { it && !it.startsWith('#') }
}

report.flaky.each { e ->
    String t = e.test
    assert e.failing_order instanceof String && e.failing_order.startsWith('target/odrust/orders/') : t + ": failing_order " + e.failing_order
    assert e.passing_order instanceof String && e.passing_order.startsWith('target/odrust/orders/') : t + ": passing_order " + e.passing_order
    assert e.failing_experiment instanceof Number && e.passing_experiment instanceof Number : t + ": experiments " + e
    assert e.failing_order == 'target/odrust/orders/exp-' + e.failing_experiment + '.txt' : t + ": failing_order " + e.failing_order + " vs experiment " + e.failing_experiment
    assert e.passing_order == 'target/odrust/orders/exp-' + e.passing_experiment + '.txt' : t + ": passing_order " + e.passing_order + " vs experiment " + e.passing_experiment
    assert e.reproduce == 'mvn odrust:reproduce -Dodrust.order=' + e.failing_order : t + ": reproduce " + e.reproduce
    assert e.evidence instanceof String && e.evidence : t + ": no evidence"
    assert e.alone?.runs == 3 : t + ": alone " + e.alone

    // the failing order is a confirm-fail experiment about this test (and possibly other tests
    // that failed in the same round): the round's order cut after the last of them; the test fails in it
    def fx = exps.find { it.id == e.failing_experiment }
    assert fx?.kind == 'confirm-fail' && fx.targets.contains(t) : t + ": failing experiment " + e.failing_experiment + " is not a confirm-fail about it: " + fx?.kind + " " + fx?.targets
    assert fx.results.find { it.test == t }?.outcome == 'fail' : t + ": does not fail in its failing experiment"
    def failing = orderOf(e.failing_order)
    assert failing.contains(t) && fx.targets.contains(failing.last()) : t + ": the failing order must end with a test it confirms: " + failing
    // the passing order: the original order cut after this test (or after the last test confirmed with it)
    def px = exps.find { it.id == e.passing_experiment }
    assert px?.kind == 'confirm-pass' && px.targets.contains(t) : t + ": passing experiment " + e.passing_experiment + " is not a confirm-pass about it: " + px?.kind + " " + px?.targets
    assert px.results.find { it.test == t }?.outcome == 'pass' : t + ": does not pass in its passing experiment"
    def passing = orderOf(e.passing_order)
    def original = orderOf('target/odrust/orders/original.txt')
    assert passing.contains(t) && px.targets.contains(passing.last()) : t + ": the passing order must end with a test it confirms: " + passing
    assert passing == original.take(passing.size()) : t + ": the passing order is not a prefix of the original order: " + passing
}
def entry = { String t -> report.flaky.find { it.test == t } }

// (a) the polluter runs before the victim, and the cleaner not in between
def faAll = orderOf(entry(VICTIM_A).failing_order)
def fa = faAll.take(faAll.indexOf(VICTIM_A))   // what ran before the victim
int lastPollution = fa.lastIndexOf(POLLUTER_A)
assert lastPollution >= 0 : "(a) the polluter does not run before the victim: " + faAll
assert fa.lastIndexOf(CLEANER_A) < lastPollution : "(a) the cleaner runs between polluter and victim: " + faAll
assert entry(VICTIM_A).alone.passed == 3 : "(a) a victim passes alone: " + entry(VICTIM_A).alone
assert entry(VICTIM_A).message?.contains('left set by another test') : "(a) message: " + entry(VICTIM_A).message

// (b) intra-class: the polluter method before the victim
def fb = orderOf(entry(VICTIM_B).failing_order)
assert fb.indexOf(POLLUTER_B) >= 0 && fb.indexOf(POLLUTER_B) < fb.indexOf(VICTIM_B) : "(b) the polluter does not run before the victim: " + fb
assert entry(VICTIM_B).alone.passed == 3 : "(b) a victim passes alone: " + entry(VICTIM_B).alone
assert entry(VICTIM_B).message?.contains('set by marksDirty') : "(b) message: " + entry(VICTIM_B).message

// (c) brittle: the state-setter does not run before it in the failing order, does in the passing one
def fc = orderOf(entry(BRITTLE_C).failing_order)
assert !fc.take(fc.indexOf(BRITTLE_C)).contains(SETTER_C) : "(c) failing order runs the state-setter first: " + fc
assert orderOf(entry(BRITTLE_C).passing_order).contains(SETTER_C) : "(c) passing order without the state-setter"
assert entry(BRITTLE_C).alone.passed == 0 : "(c) a brittle fails alone: " + entry(BRITTLE_C).alone
assert entry(BRITTLE_C).message?.contains('not loaded') : "(c) message: " + entry(BRITTLE_C).message

exps.each { x ->
    assert new File(out, 'orders/exp-' + x.id + '.txt').isFile() : "missing orders/exp-" + x.id + ".txt"
    assert orderOf('target/odrust/orders/exp-' + x.id + '.txt') == x.order : "orders/exp-" + x.id + ".txt differs from the experiment's order"
}
assert exps.findAll { it.kind == 'round' }.every { x -> x.results.every { it.test != NOT_IDEMPOTENT || it.outcome == 'pass' } } : "(d) failed in a round"

// ---- report.html and the Surefire-style XML
File html = new File(out, 'report.html')
assert html.isFile() : "missing " + html
String h = html.getText('UTF-8')
[VICTIM_A, VICTIM_B, BRITTLE_C].each { assert h.contains(it) : "report.html does not mention " + it }
assert !(h =~ /(?i)<(script|link|img)[^>]+(src|href)\s*=\s*["']?(https?:)?\/\//) : "report.html is not self-contained"
File xml = new File(out, 'surefire-reports/TEST-odrust.xml')
assert xml.isFile() : "missing " + xml
def suite = new XmlSlurper().parse(xml)
def flakyCases = suite.'**'.findAll { it.name() == 'testcase' && it.flakyFailure.size() > 0 }
assert flakyCases.size() == 3 : "testcases with flakyFailure: " + flakyCases.size()
String x = xml.getText('UTF-8')
assert x.contains('CacheCheckTest') && x.contains('startsEmpty') : "TEST-odrust.xml does not mention the victim"

// ---- console: the seed once in the plan line, a progress line per experiment (without it), and the closing table
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('BUILD SUCCESS') : "detect must succeed (failOnFlaky is off)"
def progress = log.readLines().findAll { it =~ /\[INFO\] exp \d+ / }
assert progress.size() >= report.experiments : "fewer progress lines than experiments"
assert progress.every { !it.contains('seed=') } : "a progress line repeats the seed"
assert log.contains('the same run again: -Dodrust.seed=7') : "the plan line does not give the seed"
String tail = log.substring(log.lastIndexOf('seed=7'))
[VICTIM_A, VICTIM_B, BRITTLE_C].each { assert tail.contains(it) || tail.contains(it.substring(P.length())) : "the closing table does not name " + it }

// ---- each reproduce command, run as printed, fails its test again
String mvnHome = System.getProperty('maven.home')
assert mvnHome : "maven.home is not set"
report.flaky.eachWithIndex { e, i ->
    def cmd = e.reproduce.split(' ').toList()
    assert cmd[0] == 'mvn'
    cmd = [new File(mvnHome, 'bin/mvn').path, '-B', '-Dmaven.repo.local=' + localRepositoryPath] + cmd.drop(1)
    File rlog = new File(basedir, 'reproduce-' + i + '.log')
    def proc = new ProcessBuilder(cmd).directory(basedir).redirectErrorStream(true).redirectOutput(rlog).start()
    assert proc.waitFor() == 0 : e.test + ": `" + e.reproduce + "` failed, see " + rlog
    def results = new File(out, 'run-order').listFiles().findAll { new File(it, 'result.json').isFile() }
            .collect { new JsonSlurper().parse(new File(it, 'result.json')) }
            .findAll { it.order_source == e.failing_order }
    assert results.size() == 1 : e.test + ": no run-order result for " + e.failing_order
    def mine = results[0].results.find { it.test == e.test }
    assert mine?.outcome == 'fail' : e.test + ": reproduce did not fail it: " + mine
}

// ---- explanations (minimization) and flake rates, against values computed by hand:
// (a) fails iff, among {polluter, cleaner, victim}, the polluter precedes the victim with no cleaner
//     between: 2 of the 6 relative orders, 1/3; every class holds one test, so class-compatible
//     orders give 1/3 as well. (b) and (c): the polluter (setter) comes first in half the orders.
def byTest = report.flaky.collectEntries { [(it.test): it] }
def a = byTest[VICTIM_A]
assert a.polluters == [[POLLUTER_A]] : "polluters of (a): " + a.polluters
assert a.cleaners == [(POLLUTER_A): [CLEANER_A]] : "cleaners of (a): " + a.cleaners
assert Math.abs(a.flake_rate.all_orders - 1.0 / 3) < 1e-9 : "flake rate (a): " + a.flake_rate
assert Math.abs(a.flake_rate.class_compatible - 1.0 / 3) < 1e-9 : "flake rate (a): " + a.flake_rate
assert a.minimize_experiments > 0 : "(a) cost no experiments? " + a.minimize_experiments
assert report.flaky.every { it.minimize_complete == true } : "every explanation ran to the end: " + report.flaky*.minimize_complete
def b = byTest[VICTIM_B]
assert b.polluters == [[POLLUTER_B]] : "polluters of (b): " + b.polluters
assert b.cleaners == [(POLLUTER_B): []] : "cleaners of (b): " + b.cleaners
assert Math.abs(b.flake_rate.all_orders - 0.5) < 1e-9 && Math.abs(b.flake_rate.class_compatible - 0.5) < 1e-9 : "flake rate (b): " + b.flake_rate
def c = byTest[BRITTLE_C]
assert c.state_setters == [[SETTER_C]] : "state-setters of (c): " + c.state_setters
assert c.polluters == [] : "a brittle has no polluters: " + c.polluters
assert Math.abs(c.flake_rate.all_orders - 0.5) < 1e-9 : "flake rate (c): " + c.flake_rate
// never the same order twice: minimization reuses what already ran
def minimizing = exps.findAll { it.kind in ['polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair'] }
assert minimizing*.order.collect { it.join(',') }.unique(false).size() == minimizing.size() : "a minimization order ran twice"
assert minimizing.size() == a.minimize_experiments + b.minimize_experiments + c.minimize_experiments : "experiments per answer do not add up"

return true
