import groovy.json.JsonSlurper

def P = 'com.example.inc.'
File base = new File("$basedir")
File out = new File(base, 'target/odrust')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 6 : "expected 6 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('BUILD SUCCESS')

// the "selected" lines of one goal: class -> reasons
def selected = { String g ->
    g.readLines().findAll { it.startsWith('[INFO]   selected ') }.collectEntries {
        def rest = it.substring('[INFO]   selected '.length())
        [(rest.substring(0, rest.indexOf(':'))): rest.substring(rest.indexOf(':') + 2)]
    }
}
def count = { String g -> def m = (g =~ /odrust incremental: (\d+) of (\d+) test classes selected/); assert m.find() : g; [m.group(1) as int, m.group(2) as int] }

// A: no state, a full run
assert goals[0].contains('odrust incremental: a full run: no saved incremental state (first run)')
assert count(goals[0]) == [5, 5]

// B: Calc (and CalcTest) changed; CalcTest and ReportTest (through Report) selected; the victim
// introduced at B is found at B
assert goals[1].contains('  changed  ' + P + 'Calc (bytes changed)')
assert count(goals[1]) == [2, 5]
def b = selected(goals[1])
assert b.keySet() == [P + 'CalcTest', P + 'ReportTest'] as Set : "B: " + b
assert b[P + 'ReportTest'] == 'reaches changed class ' + P + 'Calc through ' + P + 'ReportTest -> ' + P + 'Report -> ' + P + 'Calc'
assert b[P + 'CalcTest'].contains('reaches changed class ' + P + 'Calc through ' + P + 'CalcTest -> ' + P + 'Calc')
assert goals[1] =~ /com\.example\.inc\.ReportTest#total\s+victim/ : "B did not find the victim:\n" + goals[1]

// C: a test-only change selects only that test
assert count(goals[2]) == [1, 5]
assert selected(goals[2]) == [(P + 'ClockTest'): 'changed itself (bytes changed)']

// D: the build changed (another argLine): everything, said plainly; another odrust seed is no build change
assert goals[3].contains('odrust incremental: a full run: the build changed since the saved state (Surefire settings, test JVM, classpath or resources)')
// ... naming what changed (the argLine), not a -D property
def fullLine = goals[3].readLines().find { it.contains('a full run: the build changed') }
assert fullLine.contains(': what changed: ') && fullLine.contains('surefire argLine') && !fullLine.contains('MAVEN_OPTS') : fullLine
assert count(goals[3]) == [5, 5]

// E: Audit changed; RegistryTest shares the mutable Registry.ENTRIES with AuditTest (Registry.LIMIT, a constant, does not count)
assert count(goals[4]) == [2, 5]
def e = selected(goals[4])
assert e == [(P + 'AuditTest'): 'reaches changed class ' + P + 'Audit through ' + P + 'AuditTest -> ' + P + 'Audit',
             (P + 'RegistryTest'): 'uses static field ' + P + 'Registry.ENTRIES (RegistryTest.registers), which selected test ' + P + 'AuditTest uses (AuditTest.countsNothing -> Audit.entries)'] : "E: " + e

assert !goals[4].contains('new or changed test class')

// F: LeakyTest is new; AuditTest and RegistryTest use what it uses (Registry.ENTRIES)
assert count(goals[5]) == [3, 6]
def f = selected(goals[5])
assert f[P + 'LeakyTest'] == 'changed itself (added)'
assert f[P + 'AuditTest'].startsWith('uses static field ' + P + 'Registry.ENTRIES (AuditTest.countsNothing -> Audit.entries), which selected test ' + P + 'LeakyTest uses (LeakyTest.leaves)') : "F: " + f
assert f[P + 'RegistryTest'].startsWith('uses static field ' + P + 'Registry.ENTRIES (RegistryTest.registers), which selected test ' + P + 'LeakyTest uses') : "F: " + f
assert goals[5].contains('odrust incremental: 1 new or changed test class since the saved state')
assert goals[5].contains('[INFO]   new      ' + P + 'LeakyTest')
assert goals[5].contains('the targeted rounds put their tests right after and right before each test they share a static field with')
def newPairs = (goals[5] =~ /new or changed tests first: (\d+) of (\d+) pairs of a new test and a test it shares a static field with are in the targeted orders or ran in the baseline \(1 new test\)/)
assert newPairs.find() : "F: no plan line for the new test:\n" + goals[5]
assert newPairs.group(1) == newPairs.group(2) && (newPairs.group(2) as int) >= 4 : newPairs.group(0)
// found the day it is added: AuditTest#countsNothing is LeakyTest#leaves's victim
assert goals[5] =~ /com\.example\.inc\.AuditTest#countsNothing\s+victim/ : "F did not find the victim:\n" + goals[5]

// selection.json is F's; the state was saved after each run, and the report covers F's selection only
def sel = new JsonSlurper().parse(new File(out, 'incremental/selection.json'))
assert sel.full == false && sel.test_classes_total == 6
assert sel.changed == [[class: P + 'LeakyTest', why: 'added']]
assert sel.new_test_classes == [[class: P + 'LeakyTest', why: 'added']]
assert sel.selected*.class == [P + 'AuditTest', P + 'LeakyTest', P + 'RegistryTest']
def state = new JsonSlurper().parse(new File(out, 'incremental/state.json'))
assert state.file_version == 1 && state.module == 'com.example:incremental-history'
assert state.state.classes[P + 'Audit'].kind == 'main'
assert state.state.classes[P + 'LeakyTest'].kind == 'test'
def suite = new JsonSlurper().parse(new File(out, 'suite.json'))
assert suite.classes*.class == [P + 'AuditTest', P + 'LeakyTest', P + 'RegistryTest'] : "suite of F: " + suite.classes*.class
def report = new JsonSlurper().parse(new File(out, 'report.json'))
assert report.targeted.new_tests == 1 && report.targeted.new_pairs == report.targeted.new_covered : report.targeted
def victim = report.flaky.find { it.test == P + 'AuditTest#countsNothing' }
assert victim != null && victim.polluters.flatten().contains(P + 'LeakyTest#leaves') : report.flaky
def run = new JsonSlurper().parse(new File(out, 'detect/run.json'))
assert run.config.new_classes == [P + 'LeakyTest']
assert goals[5].count('state saved to') == 1
return true
