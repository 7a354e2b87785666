import groovy.json.JsonSlurper
import groovy.xml.XmlSlurper

def P = 'com.example.suites.'
def SUITE = P + 'CollectionSuiteTest'
def inSuite = { String name, String view -> SUITE + '#' + name + '[' + view + '/CollectionSuiteTest$Checks]' }
def KEYS_VICTIM = inSuite('testStartsEmpty', 'keys')
def VALUES_VICTIM = inSuite('testStartsEmpty', 'values')
def PLAIN_VICTIM = P + 'PlainSuiteTest#testCounterStartsAtZero'

File out = new File(basedir, 'target/odrust')
def report = new JsonSlurper().parse(new File(out, 'report.json'))

// ---- the same tests as Surefire: 6 in the built suite (names repeat there), 3 in the plain one
def surefire = [:]
new File(basedir, 'target/surefire-reports').listFiles().findAll { it.name.startsWith('TEST-') && it.name.endsWith('.xml') }.each { f ->
    def xml = new XmlSlurper().parse(f)
    surefire[xml.@name.text()] = xml.testcase.size()
}
assert surefire == [(SUITE): 6, (P + 'PlainSuiteTest'): 3] : "Surefire ran: " + surefire
assert report.tests_total == 9 : "tests_total: " + report.tests_total
assert report.failing == [] : "nothing fails in the original order: " + report.failing

def original = new File(out, 'orders/original.txt').readLines('UTF-8').collect { it.trim() }.findAll { it && !it.startsWith('#') }
assert original.size() == 9 && original.unique(false).size() == 9 : "original order: " + original
def expectedSuiteIds = ['keys', 'values'].collectMany { v ->
    ['testStartsEmpty', 'testRegisters', 'testNamesItsView'].collect { inSuite(it, v) }
}
assert original.findAll { it.startsWith(SUITE + '#') } == expectedSuiteIds : "ids of the built suite, in its order: " + original
assert original.findAll { it.startsWith(P + 'PlainSuiteTest#') }.every { !it.contains('[') } : "a plain suite keeps plain ids: " + original
def suiteJson = new JsonSlurper().parse(new File(out, 'suite.json'))
def noteOf = { String c -> suiteJson.classes.find { it['class'] == c }?.note }
assert noteOf(SUITE)?.startsWith('JUnit 3 suite(): 6 tests built at run time; 6 named by their place in the suite') : "note: " + noteOf(SUITE)
assert suiteJson.classes.every { it.reorderable } : "suite() classes run in any order: " + suiteJson.classes

// ---- exactly three victims, each with the polluter of its own nested suite
def byTest = report.flaky.collectEntries { [(it.test): it] }
assert byTest.keySet() == [KEYS_VICTIM, VALUES_VICTIM, PLAIN_VICTIM] as Set : "flaky: " + byTest.keySet()
assert byTest.values().every { it.kind == 'victim' } : "kinds: " + byTest.values()*.kind
assert byTest[KEYS_VICTIM].polluters == [[inSuite('testRegisters', 'keys')]] : "keys polluters: " + byTest[KEYS_VICTIM].polluters
assert byTest[VALUES_VICTIM].polluters == [[inSuite('testRegisters', 'values')]] : "values polluters: " + byTest[VALUES_VICTIM].polluters
assert byTest[PLAIN_VICTIM].polluters == [[P + 'PlainSuiteTest#testCounts']] : "plain polluters: " + byTest[PLAIN_VICTIM].polluters
assert byTest[KEYS_VICTIM].message?.contains('registry of keys') : "message: " + byTest[KEYS_VICTIM].message

// ---- the keys victim's reproduce command, run as printed, fails it again
String mvnHome = System.getProperty('maven.home')
def e = byTest[KEYS_VICTIM]
def cmd = [new File(mvnHome, 'bin/mvn').path, '-B', '-Dmaven.repo.local=' + localRepositoryPath] + e.reproduce.split(' ').toList().drop(1)
File rlog = new File(basedir, 'reproduce.log')
def proc = new ProcessBuilder(cmd).directory(basedir).redirectErrorStream(true).redirectOutput(rlog).start()
assert proc.waitFor() == 0 : "`" + e.reproduce + "` failed, see " + rlog
def results = new File(out, 'run-order').listFiles().findAll { new File(it, 'result.json').isFile() }
        .collect { new JsonSlurper().parse(new File(it, 'result.json')) }
        .findAll { it.order_source == e.failing_order }
assert results.size() == 1 : "no run-order result for " + e.failing_order
assert results[0].results.find { it.test == KEYS_VICTIM }?.outcome == 'fail' : "reproduce did not fail it: " + results[0].results
// ---- fidelity (goal 2): the same outcomes as Surefire's reports, every result matched
def fid = new JsonSlurper().parse(new File(out, 'fidelity.json'))
assert fid.same == true && fid.differences == [] : "fidelity.json: " + fid
assert fid.only_expected == [] && fid.only_actual == [] : "fidelity.json: " + fid
return true
