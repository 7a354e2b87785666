import groovy.json.JsonSlurper

// repair-junit5 runs this same script (its verify.groovy evaluates it): the module is the folder's
def MODULE = 'com.example:' + new File("$basedir").name
def P = 'com.example.repair.'
// case A: a victim whose cleaner is in a third class and has many irrelevant statements
def A_VICTIM = P + 'Alpha1VictimTest#expectsNoFlags'
def A_POLLUTER = P + 'Alpha2PolluterTest#addsFlag'
def A_CLEANER = P + 'Alpha3CleanerTest#tidiesUp'
// case B: a victim whose cleaner is in the polluter's class and needs that class's setup
def B_VICTIM = P + 'Bravo1VictimTest#expectsZero'
def B_POLLUTER = P + 'Bravo2PolluterTest#increments'
def B_CLEANER = P + 'Bravo2PolluterTest#resets'
// case C: a brittle and its state-setter
def C_BRITTLE = P + 'Charlie1BrittleTest#needsConfig'
def C_SETTER = P + 'Charlie2SetterTest#turnsOn'
// case D: a victim nothing cleans up after
def D_VICTIM = P + 'Delta1VictimTest#expectsDefaultMode'
def D_POLLUTER = P + 'Delta2PolluterTest#switchesMode'
// goal 4, the order in orders/repaired.txt
def REPAIRED_ORDER = [C_BRITTLE, A_POLLUTER, A_VICTIM, B_POLLUTER, B_VICTIM]
def CHECKS = ['failing-order', 'alone', 'recorded-failing-order', 'class', 'original-order']

File base = new File("$basedir")
File out = new File(base, 'target/odrust')
File repairDir = new File(out, 'repair')
String log = new File(base, 'build.log').getText('UTF-8')
def TEST_DIR = 'src/test/java/com/example/repair/'
def fileOf = { String id -> TEST_DIR + id.substring(P.length(), id.indexOf('#')) + '.java' }
def safe = { String id -> id.replaceAll('[^A-Za-z0-9._#-]', '_') }

// ---- every goal succeeded; the log of each (the lines after a BUILD SUCCESS belong to the next one)
assert log.count('BUILD SUCCESS') == 4 : "expected 4 successful builds in build.log, found " + log.count('BUILD SUCCESS')
def goalLogs = log.split('BUILD SUCCESS')
String repairLog = goalLogs[1]      // goal 2: odrust:repair
String applyLog = goalLogs[2]       // goal 3: odrust:repair -Dodrust.repair.apply=true

// ---- goal 1: detection found the four flaky tests and explained them exactly
def report = new JsonSlurper().parse(new File(out, 'report.json'))
assert report.complete == true : "detection did not finish: complete " + report.complete
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [A_VICTIM, B_VICTIM, C_BRITTLE, D_VICTIM] as Set : "flaky: " + flaky.keySet()
assert flaky.collectEntries { k, f -> [(k): f.kind] } == [(A_VICTIM): 'victim', (B_VICTIM): 'victim', (C_BRITTLE): 'brittle', (D_VICTIM): 'victim'] :
        "kinds: " + flaky.collectEntries { k, f -> [(k): f.kind] }
assert flaky.values().every { it.minimize_complete == true } : "explanations not complete: " + flaky.values().findAll { !it.minimize_complete }*.test
assert flaky[A_VICTIM].polluters == [[A_POLLUTER]] : "polluters of case A: " + flaky[A_VICTIM].polluters
assert flaky[A_VICTIM].cleaners == [(A_POLLUTER): [A_CLEANER]] : "cleaners of case A: " + flaky[A_VICTIM].cleaners
assert flaky[B_VICTIM].polluters == [[B_POLLUTER]] : "polluters of case B: " + flaky[B_VICTIM].polluters
assert flaky[B_VICTIM].cleaners == [(B_POLLUTER): [B_CLEANER]] : "cleaners of case B: " + flaky[B_VICTIM].cleaners
assert flaky[C_BRITTLE].state_setters == [[C_SETTER]] : "state-setters of case C: " + flaky[C_BRITTLE].state_setters
assert flaky[D_VICTIM].polluters == [[D_POLLUTER]] : "polluters of case D: " + flaky[D_VICTIM].polluters
assert (flaky[D_VICTIM].cleaners ?: [:]).values().flatten().isEmpty() : "case D must have no cleaner: " + flaky[D_VICTIM].cleaners

// ---- repair.json (the last one, from goal 3)
File repairJson = new File(repairDir, 'repair.json')
assert repairJson.isFile() : "missing " + repairJson
def repair = new JsonSlurper().parse(repairJson)
assert repair.schema_version == 2 : "schema_version: " + repair.schema_version
assert repair.module == MODULE : "module: " + repair.module
assert repair.complete == true : "complete: " + repair.complete
def repairs = repair.repairs.collectEntries { [(it.test): it] }
// each case is a cause of its own (one test each): its patch is cause-N.patch
def causeOf = { String id -> report.causes.find { it.tests.contains(id) } }
[A_VICTIM, B_VICTIM, C_BRITTLE, D_VICTIM].each { id ->
    assert causeOf(id)?.tests == [id] : id + " is not a cause of its own: " + report.causes
    assert repairs[id]?.cause == causeOf(id).id && repairs[id].members == [id] : id + ": " + repairs[id]
}
def patchOf = { String id -> 'cause-' + causeOf(id).id + '.patch' }
assert repairs.size() == repair.repairs.size() : "a test repaired twice: " + repair.repairs*.test
assert repairs.keySet() == [A_VICTIM, B_VICTIM, C_BRITTLE, D_VICTIM] as Set : "repairs: " + repairs.keySet()

// git apply from the fixture's folder. The fixture runs inside the odrust repository (target/it/...),
// and git apply in a subfolder of a repository silently skips a git-style patch ("Skipped patch",
// exit 0): the ceiling keeps git from finding that repository, so the patch is really checked.
def gitEnv = System.getenv().collect { k, v -> k + '=' + v } + ['GIT_CEILING_DIRECTORIES=' + base.absoluteFile.parentFile.path]
def gitApplyReverseCheck = { String patchPath, String file ->
    def proc = ['git', 'apply', '-R', '--check', '-v', patchPath].execute(gitEnv, base)
    def so = new StringBuilder()
    def se = new StringBuilder()
    proc.waitForProcessOutput(so, se)
    String said = so.toString() + se.toString()
    assert proc.exitValue() == 0 : "git apply -R --check " + patchPath + " failed (the patch is not what is in " + file + " now):\n" + said
    assert said.contains('Checking patch ' + file) && !said.contains('Skipped patch') : "git apply did not check " + file + ":\n" + said
}

// a patched repair: the JSON, the patch file, the patched source, the console lines; returns the
// repair and the lines of code the patch adds
def checkPatched = { String id, String kind, String sourceKind, String sourceTest, String polluter, String setter ->
    def r = repairs[id]
    assert r.kind == kind : id + ": kind " + r.kind
    assert r.status == 'patched' : id + ": status " + r.status + " (" + r.reason + ")"
    assert r.reason == null : id + ": a patched repair has no reason: " + r.reason
    assert r.source?.kind == sourceKind : id + ": source " + r.source
    assert r.source?.test == sourceTest : id + ": source " + r.source
    assert r.source?.polluter == polluter : id + ": source " + r.source
    assert r.file == fileOf(id) : id + ": file " + r.file
    assert r.patch == 'target/odrust/repair/' + patchOf(id) : id + ": patch " + r.patch
    assert r.applies?.reason == null && r.applies?.checker == 'git apply --check' : id + ": applies " + r.applies
    File pf = new File(base, r.patch)
    assert pf.isFile() : "missing " + pf
    assert r.statements instanceof List && !r.statements.isEmpty() : id + ": statements " + r.statements
    assert r.statements_total instanceof Number && r.statements_total >= r.statements.size() : id + ": statements_total " + r.statements_total
    assert r.placement?.kind in ['setup', 'test'] : id + ": placement " + r.placement
    assert r.placement?.method instanceof String && r.placement.method : id + ": placement " + r.placement
    assert r.experiments instanceof Number && r.experiments > 0 : id + ": experiments " + r.experiments
    assert r.applied == true : id + ": goal 3 applied the patch, yet applied is " + r.applied
    // verified by runs, every one of them passed
    assert r.verification instanceof List && !r.verification.isEmpty() : id + ": no verification"
    assert r.verification.every { it.check in CHECKS } : id + ": unknown checks " + r.verification*.check
    assert r.verification.every { it.passed == true } : id + ": failed checks " + r.verification.findAll { it.passed != true }
    assert r.verification.every { it.order instanceof List && it.order.contains(id) } : id + ": a check without the test: " + r.verification
    if (polluter != null) {
        assert r.verification.any { it.order.indexOf(polluter) >= 0 && it.order.indexOf(polluter) < it.order.indexOf(id) } :
                id + ": no check ran the patched victim after its polluter: " + r.verification
    }
    if (setter != null) {
        assert r.verification.any { !it.order.take(it.order.indexOf(id)).contains(setter) } :
                id + ": no check ran the patched brittle without its state-setter before it: " + r.verification
    }

    // the patch: git-style, one file, the test's own, relative to the project
    def lines = pf.readLines('UTF-8')
    assert lines.findAll { it.startsWith('diff --git ') } == ['diff --git a/' + r.file + ' b/' + r.file] : r.patch + ": diff headers " + lines.findAll { it.startsWith('diff ') }
    assert lines.findAll { it.startsWith('--- ') }.collect { it.split('\t')[0] } == ['--- a/' + r.file] : r.patch + ": " + lines.findAll { it.startsWith('--- ') }
    assert lines.findAll { it.startsWith('+++ ') }.collect { it.split('\t')[0] } == ['+++ b/' + r.file] : r.patch + ": " + lines.findAll { it.startsWith('+++ ') }
    assert lines.any { it.startsWith('@@ ') } : r.patch + ": no hunk"
    def added = lines.findAll { it.startsWith('+') && !it.startsWith('+++ ') }.collect { it.substring(1) }
    def removed = lines.findAll { it.startsWith('-') && !it.startsWith('--- ') }.collect { it.substring(1) }
    assert !added.isEmpty() : r.patch + ": adds nothing"
    assert removed.isEmpty() : r.patch + ": a repair only inserts code, yet it removes " + removed
    String addedText = added.join('\n')
    assert added.any { it.contains('odrust') } : r.patch + ": the inserted code has no odrust comment:\n" + addedText
    assert addedText.contains(id) : r.patch + ": the inserted comment does not name " + id + ":\n" + addedText
    if (polluter != null) {
        assert addedText.contains(polluter) : r.patch + ": the inserted comment does not name the polluter " + polluter + ":\n" + addedText
    }

    // goal 3 applied it: the source has the comment, and the patch is exactly what is in the tree
    String source = new File(base, r.file).getText('UTF-8')
    assert source.contains('odrust') && source.contains(id) : r.file + " was not patched:\n" + source
    gitApplyReverseCheck(r.patch, r.file)

    // the console: goal 2 did not apply, goal 3 did
    def line2 = repairLog.readLines().find { it.contains('patched') && it.contains(id + ':') }
    assert line2 != null : "goal 2 printed no patched line for " + id
    assert line2.contains(r.patch) && line2.contains('with `git apply ') : "goal 2 (no apply): " + line2
    def line3 = applyLog.readLines().find { it.contains('patched') && it.contains(id + ':') }
    assert line3 != null : "goal 3 printed no patched line for " + id
    assert line3.contains('applied to ' + r.file) && !line3.contains('not applied') : "goal 3 (apply): " + line3
    // the code only, without comments (they name tests, whose names may contain any word)
    return [r, added.findAll { String t = it.trim(); !(t.startsWith('//') || t.startsWith('/*') || t.startsWith('*')) }]
}

// ---- case A: only the needed statement of the cleaner is kept
def (ra, addedA) = checkPatched(A_VICTIM, 'victim', 'cleaner', A_CLEANER, A_POLLUTER, null)
assert ra.statements.size() == 1 && ra.statements[0].contains('Registry.FLAGS.clear()') : "case A kept statements: " + ra.statements
assert ra.statements_total >= 5 : "case A: the cleaner's body has 7 statements, statements_total " + ra.statements_total
assert addedA.any { it.contains('Registry.FLAGS.clear();') } : "case A: the patch does not clear the flags:\n" + addedA.join('\n')
['println', 'greeting', 'answer', 'parseInt'].each { w ->
    assert !addedA.any { it.contains(w) } : "case A: an irrelevant statement (" + w + ") was kept:\n" + addedA.join('\n')
}

// ---- case B: the cleaner works on a field its class's setup sets: the setup is inlined
def (rb, addedB) = checkPatched(B_VICTIM, 'victim', 'cleaner', B_CLEANER, B_POLLUTER, null)
assert rb.statements.any { it.contains('reset()') } : "case B kept statements: " + rb.statements
assert !rb.statements.any { it.contains('assertEquals') } : "case B: the assertion was kept: " + rb.statements
assert addedB.any { it.contains('Registry.counter()') } : "case B: the cleaner's setup (Registry.counter()) was not inlined:\n" + addedB.join('\n')
assert addedB.any { it.contains('reset()') } : "case B: the patch does not reset the counter:\n" + addedB.join('\n')
assert !addedB.any { it.contains('increment()') } : "case B: the patch increments:\n" + addedB.join('\n')

// ---- case C: the brittle gets its state-setter's statement
def (rc, addedC) = checkPatched(C_BRITTLE, 'brittle', 'state-setter', C_SETTER, null, C_SETTER)
assert rc.statements.size() == 1 && rc.statements[0].contains('setConfig("on")') : "case C kept statements: " + rc.statements
assert addedC.any { it.contains('Registry.setConfig("on")') } : "case C: the patch does not set the config:\n" + addedC.join('\n')
assert !addedC.any { it.contains('"abc"') } : "case C: the irrelevant statement was kept:\n" + addedC.join('\n')

// ---- case D: no cleaner, no patch
def rd = repairs[D_VICTIM]
assert rd.kind == 'victim' : "case D: kind " + rd.kind
assert rd.status == 'no-fix-source' : "case D: status " + rd.status + " (" + rd.reason + ")"
assert rd.reason instanceof String && rd.reason : "case D: no reason"
assert rd.patch == null : "case D: patch " + rd.patch
assert rd.applied != true : "case D: applied " + rd.applied
assert !new File(repairDir, patchOf(D_VICTIM)).exists() : "case D has a patch file"
[repairLog, applyLog].eachWithIndex { l, i ->
    def line = l.readLines().find { it.contains('no patch') && it.contains(D_VICTIM) }
    assert line != null : "goal " + (i + 2) + " printed no 'no patch' line for " + D_VICTIM
    assert line.contains('no cleaner') : "goal " + (i + 2) + ": " + line
}
String deltaSource = new File(base, fileOf(D_VICTIM)).getText('UTF-8')
assert !deltaSource.contains('odrust') : fileOf(D_VICTIM) + " was changed:\n" + deltaSource

// ---- only the three flaky tests' files changed; every patch stays in src/test/java
def patchedFiles = [A_VICTIM, B_VICTIM, C_BRITTLE].collect { fileOf(it) } as Set
new File(base, TEST_DIR).listFiles().findAll { it.name.endsWith('.java') }.each { f ->
    String rel = TEST_DIR + f.name
    if (!(rel in patchedFiles)) {
        assert !f.getText('UTF-8').contains('odrust') : rel + " was changed"
    }
}
assert !new File(base, 'src/main/java/com/example/repair/Registry.java').getText('UTF-8').contains('odrust') : "Registry.java was changed"
def patchFiles = repairDir.listFiles().findAll { it.name.endsWith('.patch') }
assert patchFiles*.name as Set == [A_VICTIM, B_VICTIM, C_BRITTLE].collect { patchOf(it) } as Set : "patch files: " + patchFiles*.name
patchFiles.each { pf ->
    def targets = pf.readLines('UTF-8').findAll { it.startsWith('+++ ') }
    assert !targets.isEmpty() && targets.every { it.startsWith('+++ b/src/test/java/') } : pf.name + " touches " + targets
}

// ---- goal 4: the orders that broke them now pass, recompiled from the patched sources
int reproduceAt = log.lastIndexOf('running orders/repaired.txt')
assert reproduceAt >= 0 : "no reproduce of orders/repaired.txt in build.log"
def reproduceLines = log.substring(reproduceAt).readLines()
REPAIRED_ORDER.each { id ->
    assert reproduceLines.any { it =~ ('\\bPASS\\s+' + java.util.regex.Pattern.quote(id) + '(\\s|$)') } : "reproduce: " + id + " did not pass:\n" + reproduceLines.join('\n')
}
def bad = reproduceLines.findAll { it =~ /^\[(INFO|WARNING)\]\s+(FAIL|ERROR|CRASH|TIMEOUT|EXIT|NOT-RUN)\s/ }
assert bad.isEmpty() : "reproduce after the repair: " + bad
def result = new JsonSlurper().parse(new File(out, 'run-order/repaired/result.json'))
assert result.requested == REPAIRED_ORDER : "requested: " + result.requested
assert result.honoured == true : "not honoured: " + result.first_difference
assert result.results*.test == REPAIRED_ORDER : "ran " + result.results*.test
assert result.results.every { it.outcome == 'pass' } : "after the repair every test passes: " + result.results.collect { [it.test, it.outcome] }

return true
