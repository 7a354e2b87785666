import groovy.json.JsonSlurper

def VICTIM = 'com.example.j5.AccountTest$WhenAnonymous#hasNoUser'
def POLLUTER = 'com.example.j5.LoginTest#logsIn'
File out = new File(basedir, 'target/odrust')
File reportFile = new File(out, 'report.json')
assert reportFile.isFile() : "missing " + reportFile
def report = new JsonSlurper().parse(reportFile)

assert report.module == 'com.example:detect-junit5' : "module: " + report.module
assert report.strategy == 'random-class-method' : "strategy: " + report.strategy
assert report.seed == 5 : "seed: " + report.seed
assert report.tests_total == 10 : "tests_total: " + report.tests_total
assert report.rounds_run == 12 : "rounds_run: " + report.rounds_run
assert report.failing == [] : "failing: " + report.failing
assert report.flaky.collect { [it.test, it.kind] } == [[VICTIM, 'victim']] : "flaky: " + report.flaky.collect { [it.test, it.kind] }
def v = report.flaky[0]
assert v.alone?.runs == 3 && v.alone?.passed == 3 : "alone: " + v.alone
assert v.message?.contains('left set by another test') : "message: " + v.message
def orderOf = { String rel ->
    File f = new File(basedir, rel)
    assert f.isFile() : "missing order file " + rel
    f.readLines('UTF-8').collect { it.trim() }.findAll { it && !it.startsWith('#') }
}
def failing = orderOf(v.failing_order)
assert failing.last() == VICTIM : "failing order ends with " + failing.last()
assert failing.contains(POLLUTER) : "failing order without the polluter: " + failing

// the rounds are random class-method orders: classes stay together (a @Nested class is a class of its own)
def exps = new File(out, 'detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert exps.size() == report.experiments : "experiments.jsonl has " + exps.size() + " lines, report says " + report.experiments
def rounds = exps.findAll { it.kind == 'round' }
assert rounds.size() == 12 : "rounds: " + rounds.size()
rounds.each { r ->
    assert r.strategy == 'random-class-method' : "round strategy: " + r.strategy
    assert r.order.size() == 10 : "a round runs every test: " + r.order
    def classes = r.order.collect { it.substring(0, it.indexOf('#')) }
    assert classes.unique(false) == classes.inject([]) { acc, c -> acc && acc.last() == c ? acc : acc + [c] } : "a class is split in round " + r.round + ": " + r.order
}
assert rounds*.order.unique(false).size() > 1 : "every round ran the same order"
assert new File(out, 'report.html').getText('UTF-8').contains('WhenAnonymous') : "report.html does not mention the victim"
assert new File(out, 'surefire-reports/TEST-odrust.xml').getText('UTF-8').contains('hasNoUser') : "TEST-odrust.xml does not mention the victim"
return true

// ---- goal 2: the same detection with odrust.isolation=classloader
def shared = new JsonSlurper().parse(new File(basedir, 'target/classloader/report.json'))
assert shared.flaky.collect { [it.test, it.kind, it.polluters] } == report.flaky.collect { [it.test, it.kind, it.polluters] } : "classloader: " + shared.flaky.collect { [it.test, it.kind, it.polluters] }
def sharedExps = new File(basedir, 'target/classloader/detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert sharedExps.findAll { it.kind == 'round' }*.order == exps.findAll { it.kind == 'round' }*.order : "other round orders with classloader"
assert sharedExps.count { it.isolation == 'classloader' && it.kind == 'round' } == 10 : "rounds in shared JVMs: " + sharedExps.count { it.isolation == 'classloader' && it.kind == 'round' }
// explanation experiments share JVMs too; the polluter reported was run again in a fresh JVM
assert sharedExps.any { it.isolation == 'classloader' && it.kind.startsWith('polluter') } : "no explanation experiment in a shared JVM"
shared.flaky.each { t -> t.polluters.each { g -> assert sharedExps.any { it.isolation == null && it.order == g + [t.test] } : "polluter " + g + " not confirmed in a fresh JVM" } }
assert new JsonSlurper().parse(new File(basedir, 'target/classloader/detect/isolation-check.json')).used == true
