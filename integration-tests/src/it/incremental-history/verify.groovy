import groovy.json.JsonSlurper

def P = 'com.example.inc.'
File base = new File("$basedir")
File out = new File(base, 'target/odrust')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 5 : "expected 5 successful builds, found " + log.count('BUILD SUCCESS')
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
assert count(goals[3]) == [5, 5]

// E: Audit changed; RegistryTest shares the mutable Registry.ENTRIES with AuditTest (Registry.LIMIT, a constant, does not count)
assert count(goals[4]) == [2, 5]
def e = selected(goals[4])
assert e == [(P + 'AuditTest'): 'reaches changed class ' + P + 'Audit through ' + P + 'AuditTest -> ' + P + 'Audit',
             (P + 'RegistryTest'): 'uses static field ' + P + 'Registry.ENTRIES (RegistryTest.registers), which selected test ' + P + 'AuditTest uses (AuditTest.countsNothing -> Audit.entries)'] : "E: " + e

// selection.json is E's; the state was saved after each run, and the report covers E's selection only
def sel = new JsonSlurper().parse(new File(out, 'incremental/selection.json'))
assert sel.full == false && sel.test_classes_total == 5
assert sel.changed == [[class: P + 'Audit', why: 'bytes changed']]
assert sel.selected*.class == [P + 'AuditTest', P + 'RegistryTest']
def state = new JsonSlurper().parse(new File(out, 'incremental/state.json'))
assert state.file_version == 1 && state.module == 'com.example:incremental-history'
assert state.state.classes[P + 'Audit'].kind == 'main'
def suite = new JsonSlurper().parse(new File(out, 'suite.json'))
assert suite.classes*.class == [P + 'AuditTest', P + 'RegistryTest'] : "suite of E: " + suite.classes*.class
assert goals[4].count('state saved to') == 1
return true
