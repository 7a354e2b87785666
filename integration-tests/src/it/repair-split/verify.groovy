import groovy.json.JsonSlurper

def P = 'com.example.split.'
def ALPHA = P + 'AlphaTest#showsDefaultMode'
def BRAVO = P + 'BravoTest#printsDefaultMode'
def POLLUTER = P + 'other.CharlieTest#switchesToMaintenance'
def CLEANER = P + 'DeltaTest#tidiesUp'

File base = new File("$basedir")
File out = new File(base, 'target/odrust')
File repairDir = new File(out, 'repair')
String log = new File(base, 'build.log').getText('UTF-8').replaceAll(/\u001B\[[0-9;]*m/, '')

// ---- every goal succeeded; the log of each (the lines after a BUILD SUCCESS belong to the next one)
assert log.count('BUILD SUCCESS') == 4 : "expected 4 successful builds in build.log, found " + log.count('BUILD SUCCESS')
assert !log.contains('BUILD FAILURE') : "a goal failed"
def goalLogs = log.split('BUILD SUCCESS')
String repairLog = goalLogs[1]
String applyLog = goalLogs[2]
String reproduceLog = goalLogs[3]

// ---- goal 1: both victims have the polluter and the cleaner, and are one cause of two classes
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [ALPHA, BRAVO] as Set : "flaky: " + flaky.keySet()
[ALPHA, BRAVO].each { v ->
    assert flaky[v].kind == 'victim' : v + ": " + flaky[v].kind
    assert flaky[v].polluters == [[POLLUTER]] : "polluters of " + v + ": " + flaky[v].polluters
    assert flaky[v].cleaners == [(POLLUTER): [CLEANER]] : "cleaners of " + v + ": " + flaky[v].cleaners
}
def causes = report.causes.findAll { it.role == 'victim' }
assert causes.size() == 1 && causes[0].tests as Set == [ALPHA, BRAVO] as Set : "causes: " + report.causes

// ---- goal 2: the cause's one placement does not compile; it is split by class, each part patched
// in its own class's setup
assert repairLog =~ /does not compile: line \d+ of the patched CharlieTest\.java: reset\(\) is not public/ :
        "no compile error naming the polluter's patched file:\n" + repairLog.readLines().findAll { it.contains('compile') }.join('\n')
assert repairLog.contains('cause 1 split in 2 parts: no one patch fixed its 2 tests') :
        "no warning of the split:\n" + repairLog.readLines().findAll { it.contains('split') }.join('\n')
assert repairLog =~ /odrust repair: repair 2 of 3 \(cause 1, 1 of its tests\)/ :
        "no progress line naming a part:\n" + repairLog.readLines().findAll { it.contains('odrust repair: repair') }.join('\n')
assert repairLog.contains('odrust repair: 2 verified patches for 2 order-dependent tests in 2 repairs') :
        "the end line:\n" + repairLog.readLines().findAll { it.contains('verified patch') }.join('\n')

def repair = new JsonSlurper().parse(new File(repairDir, 'repair.json'))
def entries = repair.repairs.collectEntries { [(it.test): it] }
assert entries.keySet() == [ALPHA, BRAVO] as Set : "repair.json entries: " + entries.keySet()
int records = new File(repairDir, 'experiments.jsonl').readLines().findAll { it.trim() }.size()
[ALPHA, BRAVO].each { v ->
    def e = entries[v]
    assert e.cause == 1 && e.members == [v] : v + ": cause " + e.cause + ", members " + e.members
    assert e.split instanceof String && e.split.startsWith('cause 1 split in 2 parts') : v + ": split " + e.split
    assert e.status == 'patched' : v + ": " + e.status + " (" + e.reason + ")"
    assert e.placement.kind == 'setup' : v + ": placement " + e.placement
    assert e.source.test == CLEANER : v + ": source " + e.source
    assert e.statements == ['Mode.reset();'] : v + ": statements " + e.statements
    assert e.applies.reason == null : v + ": the patch does not apply as written: " + e.applies
    String cls = v.substring(P.length(), v.indexOf('#'))
    String name = 'cause-1-' + v + '.patch'
    assert e.patch == 'target/odrust/repair/' + name : v + ": patch " + e.patch
    String patch = new File(repairDir, name).getText('UTF-8')
    def files = patch.readLines().findAll { it.startsWith('diff --git ') }
    assert files == ['diff --git a/src/test/java/com/example/split/' + cls + '.java b/src/test/java/com/example/split/' + cls + '.java'] :
            name + " changes " + files
}
// the cause's whole repair (its first test's records) ran the unpatched order and the candidate
// that did not compile; every test JVM is counted once, in the entry of the test it ran for
int compileErrors = entries[ALPHA].compile_errors + entries[BRAVO].compile_errors
assert compileErrors == 1 : "compile errors: " + compileErrors
assert entries[ALPHA].experiments + entries[BRAVO].experiments == records - 1 :
        "entries count " + (entries[ALPHA].experiments + entries[BRAVO].experiments) + " test JVMs of " + records + " records (1 did not compile)"
assert repairLog.contains('odrust repair: ' + (records - 1) + ' experiments in ') : "the end line's count is not " + (records - 1)

// ---- goal 3: both patches applied from the records, nothing run again
assert applyLog.contains('odrust repair: no experiment ran') : "goal 3 ran experiments again"
// repair.json's phases are goal 3's: one cause at the start, three repairs in the end (the cause
// and its two parts), nothing run, every record an earlier run's
def phases = repair.phases
assert phases instanceof List && phases.size() == 1 && phases[0].phase == 'repair' : "repair.json phases: " + phases
assert phases[0].predicted_units == 1 && phases[0].units == 3 : "units: " + phases
assert phases[0].experiments == 0 && phases[0].earlier_records == records : "phases: " + phases + ", records " + records
[ALPHA, BRAVO].each { v ->
    assert entries[v].applied == true : v + ": not applied (" + entries[v].not_applied + ")"
    String cls = v.substring(P.length(), v.indexOf('#'))
    String text = new File(base, 'src/test/java/com/example/split/' + cls + '.java').getText('UTF-8')
    assert text.contains('@Before') && text.contains('Mode.reset();') : cls + ".java after apply:\n" + text
}
assert !new File(base, 'src/test/java/com/example/split/other/CharlieTest.java').getText('UTF-8').contains('reset') :
        "the polluter's file was changed"

// ---- goal 4: the order that broke both victims passes once the patches are in
assert reproduceLog =~ /reproduce: 3 tests in 1 JVM, \d+ segments?: pass 3/ :
        "the failing order after the patches:\n" + reproduceLog.readLines().findAll { it.contains('PASS') || it.contains('FAIL') || it.contains('reproduce:') }.join('\n')
return true
