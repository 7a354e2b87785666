import groovy.json.JsonSlurper

def P = 'com.example.diag.'
def A_VICTIM = P + 'Alpha1VictimTest#expectsNoRates'
def A_POLLUTER = P + 'Alpha2PolluterTest#setsRate'
def B_VICTIM = P + 'Bravo1VictimTest#startsAtZero'
def B_POLLUTER = P + 'Bravo2PolluterTest#increments'

File base = new File("$basedir")
File out = new File(base, 'target/odrust')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 4 : "expected 4 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('BUILD SUCCESS')

// ---- goal 1: the two victims and their polluters
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [A_VICTIM, B_VICTIM] as Set : "flaky: " + flaky.keySet()
assert flaky[A_VICTIM].polluters == [[A_POLLUTER]]
assert flaky[B_VICTIM].polluters == [[B_POLLUTER]]

// ---- goal 2: diagnose.json
def diag = new JsonSlurper().parse(new File(out, 'diagnose/diagnose.json'))
assert diag.schema_version == 1
assert diag.module == 'com.example:diagnose-junit4'
def byTest = diag.entries.collectEntries { [(it.test): it] }
assert byTest.keySet() == [A_VICTIM, B_VICTIM] as Set : "entries: " + byTest.keySet()

// case A: RATES (static final map) confirmed; lastUpdate differs but is not needed
def a = byTest[A_VICTIM]
assert a.status == 'confirmed' : "A: " + a.status + ": " + a.reason
assert a.failing_order == [A_POLLUTER, A_VICTIM]
assert a.passing_order == [A_VICTIM]
assert a.polluted_state == [P + 'Prices.RATES'] : "A polluted state: " + a.polluted_state
def aFields = a.fields.collectEntries { [(it.field): it] }
assert aFields.keySet() == [P + 'Prices.RATES', P + 'Prices.lastUpdate'] as Set : "A fields: " + aFields.keySet()
def rates = aFields[P + 'Prices.RATES']
assert rates.confirmed == true && rates.final == true && rates.restorable == true
assert rates.failing == '{eur=0.9}' && rates.passing == '{}' : "RATES values: " + rates.failing + " vs " + rates.passing
assert rates.differences == [[path: P + 'Prices.RATES[eur]', failing: '0.9', passing: '(absent)']] : "RATES paths: " + rates.differences
def last = aFields[P + 'Prices.lastUpdate']
assert last.confirmed == false && last.failing == '42' && last.passing == '0'
// two captures, the passing one again (noise: nothing differs between the two passing runs here),
// then every restorable field, then the smaller set
assert a.experiments == 5 : "A experiments: " + a.experiments
assert !a.fields.any { it.noise } : "A noise: " + a.fields.findAll { it.noise }

// case B: a private static int
def b = byTest[B_VICTIM]
assert b.status == 'confirmed' : "B: " + b.status + ": " + b.reason
assert b.polluted_state == [P + 'Counter.count']
assert b.fields.size() == 1 && b.fields[0].failing == '1' && b.fields[0].passing == '0'

// the captures are on disk, as XML, and name what differs
def failingXml = new File(a.failing_capture).getText('UTF-8')
def passingXml = new File(a.passing_capture).getText('UTF-8')
assert failingXml.contains('<static field="RATES" type="java.util.Map" final="true"><map class="java.util.HashMap" size="1"><entry><string>eur</string><prim class="java.lang.Double">0.9</prim></entry></map></static>')
assert passingXml.contains('<static field="RATES" type="java.util.Map" final="true"><map class="java.util.HashMap" size="0"></map></static>')

// report.json carries each verdict as polluted_state
report = new JsonSlurper().parse(new File(out, 'report.json'))
report.flaky.each { f ->
    assert f.polluted_state != null : "no polluted_state for " + f.test
    assert f.polluted_state.status == 'confirmed'
}

// report.html (rendered again) shows it
def html = new File(out, 'report.html').getText('UTF-8')
assert html.contains('Polluted state (confirmed by restoring it; 5 experiments): ' + P + 'Prices.RATES is {eur=0.9} after the polluter, {} when the test passes') : "report.html"
assert html.contains('Also differs (restoring it is not needed): ' + P + 'Prices.lastUpdate is 42 after the polluter, 0 when the test passes')

// the console names the polluted field and both values
assert goals[1].contains('polluted ' + P + 'Prices.RATES: {eur=0.9} (failing order) vs {} (passing)') : goals[1]
assert goals[1].contains('differs  ' + P + 'Prices.lastUpdate: 42 (failing order) vs 0 (passing)')

// ---- goal 3: one test, by its short id, from the recorded experiments (no new test JVM)
assert !goals[2].contains('[diagnose ') : "goal 3 ran experiments again:\n" + goals[2]
assert goals[2].contains('polluted ' + P + 'Counter.count: 1 (failing order) vs 0 (passing)')
def history = new File(out, 'diagnose/experiments.jsonl').readLines().findAll { it.trim() }
assert history.size() == 9 : "history: " + history.size()
// its prediction against what it ran: one test, nothing run, from the 9 records goal 2 made
// (goal 4's repair keeps diagnose.json's phases: they are odrust:diagnose's)
def phases = diag.phases
assert phases instanceof List && phases.size() == 1 : "diagnose.json phases: " + phases
assert phases[0].phase == 'diagnose' && phases[0].predicted_units == 1 && phases[0].units == 1 : "phases: " + phases
assert phases[0].experiments == 0 && phases[0].actual_ms == 0 : "goal 3 ran nothing, yet phases say " + phases
assert phases[0].earlier_records == 9 : "phases: " + phases
assert phases[0].predicted_experiments >= 1 : "phases: " + phases

// ---- goal 4: repair without a cleaner, from the module's reset methods
assert !goals[3].contains('[diagnose ') : "repair diagnosed again instead of reusing the diagnosis:\n" + goals[3]
def repair = new JsonSlurper().parse(new File(out, 'repair/repair.json'))
def fixes = repair.repairs.collectEntries { [(it.test): it] }
def ra = fixes[A_VICTIM]
assert ra.status == 'patched' : "A: " + ra.status + ": " + ra.reason
assert ra.source.kind == 'reset-method' : "A source: " + ra.source
assert ra.statements == ['com.example.diag.Prices.reset();'] : "A statements: " + ra.statements
assert ra.reset_candidates[0] == 'com.example.diag.Prices.reset();' : "A candidates: " + ra.reset_candidates
assert ra.polluted_state.status == 'confirmed'
assert ra.polluted_state.fields.find { it.field == P + 'Prices.RATES' }.confirmed == true
assert ra.verification*.check.containsAll(['failing-order', 'alone', 'original-order']) : "A checks: " + ra.verification*.check
assert ra.verification.every { it.passed }
def patch = new File(base, ra.patch).getText('UTF-8')
assert patch.contains('+        com.example.diag.Prices.reset();') : patch
assert patch.contains("+    // com.example.diag.Alpha1VictimTest#expectsNoRates (with the module's own reset code; see odrust:diagnose)") : patch
// nothing was applied
assert !new File(base, 'src/test/java/com/example/diag/Alpha1VictimTest.java').getText('UTF-8').contains('odrust')

// B: Counter.count has no reset method; the only writer (increment) is tried and rejected, and
// the reason names the field and both values
def rb = fixes[B_VICTIM]
assert rb.status != 'patched' : "B got a patch: " + rb
assert rb.patch == null
assert rb.reason.contains(P + 'Counter.count (1 after the polluter, 0 when the test passes)') : "B reason: " + rb.reason
assert goals[3].contains('no patch ' + B_VICTIM) : goals[3]
return true
