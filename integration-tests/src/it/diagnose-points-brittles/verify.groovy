import groovy.json.JsonSlurper

def P = 'com.example.app.'
def K = 'com.example.kit.'
def C_VICTIM = P + 'Alpha1CtorVictimTest#startsWithAnEmptyRegistry'
def C_POLLUTER = P + 'Alpha2PolluterTest#registers'
def D_BRITTLE = P + 'Bravo1BrittleTest#needsStrictMode'
def D_SETTER = P + 'Bravo0SetterTest#initializes'

File base = new File("$basedir")
File out = new File(base, 'app/target/odrust')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 4 : "expected 4 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('BUILD SUCCESS')

// ---- goal 2: the victim and its polluter, the brittle and its state-setter
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [C_VICTIM, D_BRITTLE] as Set : "flaky: " + flaky.keySet()
assert flaky[C_VICTIM].polluters == [[C_POLLUTER]]
assert flaky[D_BRITTLE].state_setters == [[D_SETTER]]

// ---- goal 3: both confirmed; the state lives in testkit's jar, captured by default
String diagnose = goals[2]
assert diagnose.contains("of the project's own 1 jar (testkit-1.0-SNAPSHOT.jar)") : diagnose
def diag = new JsonSlurper().parse(new File(out, 'diagnose/diagnose.json'))
def byTest = diag.entries.collectEntries { [(it.test): it] }

// C: its constructor reads the registry: restored before its class is prepared (it is the first
// test of its class after the polluter), so before JUnit 5 builds the instance
def c = byTest[C_VICTIM]
assert c.status == 'confirmed' : "C: " + c.status + ": " + c.reason
assert c.polluted_state == [K + 'Registry.ENTRIES'] : "C polluted state: " + c.polluted_state
assert c.point == 'class' : "C point: " + c.point
assert c.reason.contains('before its class is prepared') : c.reason
// the start time differs between two passing JVMs: noise, shown and never restored
def started = c.fields.find { it.field == K + 'Registry.startedNanos' }
assert started != null && started.noise == true && started.confirmed == false : "C fields: " + c.fields
def cRecords = new File(out, 'diagnose/experiments.jsonl').readLines().findAll { it.trim() }
        .collect { new JsonSlurper().parseText(it) }.findAll { it.test == C_VICTIM }
assert cRecords.every { it.acted_at == 'class' } : "C acted at: " + cRecords*.acted_at
assert !cRecords.findAll { it.kind == 'restore' }.any { it.fields.contains(K + 'Registry.startedNanos') } : "noise restored"

// D: alone, Settings is not even initialized; the failing order is captured again with it
// initialized, and restoring the field the state-setter wrote makes the brittle pass
def d = byTest[D_BRITTLE]
assert d.kind == 'brittle'
assert d.status == 'confirmed' : "D: " + d.status + ": " + d.reason
assert d.polluted_state == [K + 'Settings.mode'] : "D polluted state: " + d.polluted_state
def mode = d.fields.find { it.field == K + 'Settings.mode' }
assert mode.failing == 'null' && mode.passing == 'strict' : "D values: " + mode
def dRecords = new File(out, 'diagnose/experiments.jsonl').readLines().findAll { it.trim() }
        .collect { new JsonSlurper().parseText(it) }.findAll { it.test == D_BRITTLE }
// (the records of goal 3; goal 4 appends its own after them)
def again = dRecords.findAll { it.kind == 'capture-failing' && it.fingerprint == dRecords[0].fingerprint }
assert again.size() == 2 && again[0].initialize == [] && again[1].initialize.contains(K + 'Settings') : "D failing captures: " + again*.initialize
assert dRecords.findAll { it.kind == 'restore' }.every { it.initialize.contains(K + 'Settings') }

// ---- goal 4: another include changes what a capture holds: the records are not replayed
String rerun = goals[3]
assert rerun.contains('ran against other code or other capture settings') : rerun
assert rerun.contains('[diagnose ') : "goal 4 replayed the old captures:\n" + rerun
diag = new JsonSlurper().parse(new File(out, 'diagnose/diagnose.json'))
assert diag.entries.every { it.status == 'confirmed' } : diag.entries*.status
return true
