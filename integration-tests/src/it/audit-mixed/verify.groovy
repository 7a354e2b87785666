import groovy.json.JsonSlurper

def P = 'com.example.audit.'
File base = new File("$basedir")
File out = new File(base, 'target/odrust/audit')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 3 : "expected 3 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('Building audit-mixed 1.0-SNAPSHOT').drop(1)
assert goals.size() == 6

// ---- goal 1: the report (goal 4 audited other tests: this one was moved aside, kept)
def report = new JsonSlurper().parse(new File(base, 'target/odrust/audit.previous-1/report.json'))
assert report.schema_version == 1
assert report.module == 'com.example:audit-mixed'
assert report.tests == 9
def o = report.outcome
assert o.non_idempotent*.test == [P + 'CounterTest#incrementsOnce'] : "non-idempotent: " + o.non_idempotent
def nio = o.non_idempotent[0]
assert nio.level == 'test' && nio.first == 'pass' && nio.second == 'fail'
assert nio.order == [P + 'CounterTest#incrementsOnce', P + 'CounterTest#incrementsOnce']
assert nio.fields.collect { [it.field, it.before, it.after] } == [[P + 'CounterTest.calls', '0', '1']] : "fields: " + nio.fields
assert nio.message.contains('expected: <1> but was: <2>') : nio.message

def latent = o.latent_polluters.collectEntries { [(it.field.field): it] }
def mode = latent[P + 'Settings.mode']
assert mode != null : "latent polluters: " + o.latent_polluters.collect { it.test + ' ' + it.field.field }
assert mode.test == P + 'LeavesModeTest#setsMode'
assert mode.field.before == 'default' && mode.field.after == 'fast' : mode.field
assert mode.rank == 'high' && mode.readers == [P + 'ReadsModeTest'] : mode.rank + ' ' + mode.readers
def names = latent[P + 'Registry.NAMES']
assert names != null && names.test == P + 'AddsNameTest#adds' && names.rank == 'low' : names
// Settings is initialized by LeavesModeTest: compared with its state right after initialization
assert mode.field.since_initialized == true
// the test class's own counter: initialized in its class setup, changed by the test
assert latent[P + 'CounterTest.calls']?.test == P + 'CounterTest#incrementsOnce' : latent[P + 'CounterTest.calls']
// a test class's own static that its @BeforeEach sets anew before each test: its fixture
assert !latent.containsKey(P + 'FixtureTest.shared') : latent[P + 'FixtureTest.shared']
assert o.notes.any { it.contains(P + 'FixtureTest.shared') && it.contains('fixtures, not reported') } : o.notes
// the high one first
assert o.latent_polluters[0].field.field == P + 'Settings.mode'
// restored in the test, or in its teardown: not reported
assert !latent.containsKey(P + 'Settings.level') : "level reported: " + latent[P + 'Settings.level']
assert !o.latent_polluters.any { it.test.contains('Restores') || it.test.contains('Teardown') }

// the thread and the file WorkerTest leaves; the build log invoker appends to is nobody's
def left = o.left_behind.collect { [it.test, it.kind, it.name, it.detail] }
assert left.contains([P + 'WorkerTest#leavesWorkerAndFile', 'thread', 'audit-worker', 'daemon']) : "left behind: " + left
assert left.contains([P + 'WorkerTest#leavesWorkerAndFile', 'file', 'audit-leftover.txt', 'user.dir']) : "left behind: " + left
// (the temporary directory is shared with other processes: only what this module's tests leave is asserted)
assert left.findAll { it[1] == 'thread' || it[3] == 'user.dir' }.size() == 2 : "left behind: " + left
assert goals[0].contains('LEFT BEHIND     ' + P + 'WorkerTest#leavesWorkerAndFile leaves a daemon thread running: audit-worker')

// the console named both kinds, with a command to reproduce
assert goals[0].contains('NON-IDEMPOTENT  ' + P + 'CounterTest#incrementsOnce')
assert goals[0].contains("reproduce: mvn ")
assert goals[0].contains('LATENT POLLUTER ' + P + 'LeavesModeTest#setsMode [high] leaves field ' + P + 'Settings.mode: default -> fast')
assert goals[0].contains('odrust audit plan:')
def html = new File(base, 'target/odrust/audit.previous-1/report.html').getText('UTF-8')
assert html.contains('data-field="' + P + 'Settings.mode"')

// ---- goal 2: resumed, nothing run again
assert goals[1].contains('continuing an earlier audit')
assert !goals[1].contains('[audit ')

// ---- goal 3: an unknown class, named
def third = goals[2]
assert third.contains('odrust.audit.classes: no test class NoSuchTest in this module')

// ---- goal 4: one class, failOnFlaky
def fourth = goals[3]
assert fourth.contains('odrust audit: the earlier run in ') && fourth.contains('audit.previous-1')
assert fourth.contains('1 non-idempotent, 1 latent polluter of a field another test reads; see ')
def only = new JsonSlurper().parse(new File(out, 'report.json'))
assert only.tests == 2 && only.outcome.non_idempotent*.test == [P + 'CounterTest#incrementsOnce']
// ReadsModeTest was not audited, and still reads the field
def onlyMode = only.outcome.latent_polluters.find { it.field.field == P + 'Settings.mode' }
assert onlyMode?.rank == 'high' && onlyMode.readers == [P + 'ReadsModeTest'] : onlyMode
// no JDK state differs by what the capturing itself did (user.timezone, set once a TimeZone is asked for)
assert !only.outcome.latent_polluters.any { it.field.pseudo } : only.outcome.latent_polluters
assert !o.latent_polluters.any { it.field.pseudo } : o.latent_polluters
// ---- goals 5 and 6: the quarantine file honoured by failOnFlaky, then expired
assert goals[4].contains('quarantined ' + P + 'CounterTest#incrementsOnce (entry 1 of audit-quarantine.json, owner carol, until 2999-12-31')
assert goals[4].contains('quarantined ' + P + 'LeavesModeTest#setsMode (entry 2 of audit-quarantine.json, owner dave')
assert goals[4].contains('BUILD SUCCESS') && !goals[4].contains('[audit ')
assert goals[5].contains('2 quarantine entries of ') && goals[5].contains('expired (-Dodrust.failOnFlaky=true)')
assert goals[5].contains('entry 1 (test ' + P + 'CounterTest#incrementsOnce) expired on 2999-12-31; owner: carol')
true
