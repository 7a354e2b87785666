import groovy.json.JsonSlurper

def load = { String module ->
    File f = new File(basedir, module + '/target/odrust/report.json')
    assert f.isFile() : "missing " + f
    new JsonSlurper().parse(f)
}

// ---- a: a JUnit 4 victim
def a = load('a')
assert a.module == 'com.example:mm-a' : "a: module " + a.module
assert a.seed == 3 : "a: seed " + a.seed
assert a.tests_total == 3 : "a: tests_total " + a.tests_total
assert a.flaky.collect { [it.test, it.kind] } == [['com.example.a.CheckTest#startsEmpty', 'victim']] : "a: flaky " + a.flaky.collect { [it.test, it.kind] }
assert new File(basedir, 'a/' + a.flaky[0].failing_order).isFile() : "a: failing order is not relative to module a: " + a.flaky[0].failing_order
assert new File(basedir, 'a/target/odrust/report.html').isFile() : "a: missing report.html"
// pasted at the reactor root, where detect ran, the reproduce command runs module a only
assert a.flaky[0].reproduce == 'mvn -f a/pom.xml odrust:reproduce -Dodrust.order=' + a.flaky[0].failing_order : "a: reproduce " + a.flaky[0].reproduce

// ---- b: a Jupiter brittle
def b = load('b')
assert b.module == 'com.example:mm-b' : "b: module " + b.module
assert b.seed == 3 : "b: seed " + b.seed
assert b.tests_total == 3 : "b: tests_total " + b.tests_total
assert b.flaky.collect { [it.test, it.kind] } == [['com.example.b.UseTest#needsReady', 'brittle']] : "b: flaky " + b.flaky.collect { [it.test, it.kind] }
assert b.flaky[0].alone?.runs == 2 && b.flaky[0].alone?.passed == 0 : "b: alone " + b.flaky[0].alone
assert new File(basedir, 'b/' + b.flaky[0].failing_order).isFile() : "b: failing order is not relative to module b: " + b.flaky[0].failing_order

// ---- c: no tests, skipped; nothing analysed at the reactor root either
assert !new File(basedir, 'c/target/odrust/report.json').exists() : "c has no tests but got a report"
assert !new File(basedir, 'target/odrust/report.json').exists() : "the pom-packaged root got a report"

def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('BUILD SUCCESS') : "detect over the reactor must succeed"
// the section of the log that builds module c
int cStart = log.indexOf('< com.example:mm-c >')
assert cStart >= 0 : "module c was not built"
String cPart = log.substring(cStart)
assert cPart.readLines().any { it.contains('no tests') } : "module c: no line containing 'no tests'"

// ---- one summary, printed once, after the last module, with a line for a and for b
assert log.count('odrust summary') == 1 : "'odrust summary' printed " + log.count('odrust summary') + " times"
String summary = log.substring(log.indexOf('odrust summary'))
assert log.indexOf('odrust summary') > cStart : "the summary is printed before the last module"
def summaryLines = summary.readLines().takeWhile { !it.contains('BUILD SUCCESS') && !it.contains('Reactor Summary') }
assert summaryLines.any { it.contains('mm-a') } : "no summary line for module a:\n" + summaryLines.join('\n')
assert summaryLines.any { it.contains('mm-b') } : "no summary line for module b:\n" + summaryLines.join('\n')
return true
