import groovy.json.JsonSlurper

def MODULE = 'com.example:causes-app'
def P = 'com.example.causes.'
// one cause: four victims in two classes, one polluter (whose class has a tearDown()), one cleaner
def VICTIMS = [P + 'AlphaScreenTest#showsDefaultMode', P + 'AlphaScreenTest#titleNamesMode',
               P + 'BravoPrintTest#headerNamesMode', P + 'BravoPrintTest#printsDefaultMode']
def POLLUTER = P + 'CharlieModeTest#switchesToMaintenance'
def CLEANER = P + 'DeltaCleanupTest#tidiesUp'

File base = new File("$basedir")
File app = new File(base, 'app')
File out = new File(app, 'target/odrust')
File repairDir = new File(out, 'repair')
File originals = new File(base, 'prebuild-originals') // prebuild.groovy's copies, CRLF, byte for byte
// without ANSI colour codes (Maven may print a reset code at its exit, before the next goal's first line)
String log = new File(base, 'build.log').getText('UTF-8').replaceAll(/\u001B\[[0-9;]*m/, '')
def TEST_DIR = 'src/test/java/com/example/causes/'
def fileOf = { String id -> TEST_DIR + id.substring(P.length(), id.indexOf('#')) + '.java' }
String POLLUTER_FILE = fileOf(POLLUTER)            // relative to app
String POLLUTER_PATH = 'app/' + POLLUTER_FILE      // relative to the reactor root, where mvn ran
def originalOf = { String file -> new File(originals, file.substring('src/test/java/'.length())) }
def show = { String s -> s.replace('\r', '\\r').replace('\n', '\\n\n') }

// ---- every goal succeeded; the log of each (the lines after a BUILD SUCCESS belong to the next one)
assert log.count('BUILD SUCCESS') == 6 : "expected 6 successful builds in build.log, found " + log.count('BUILD SUCCESS')
assert !log.contains('BUILD FAILURE') : "a goal failed"
def goalLogs = log.split('BUILD SUCCESS')
String repairLog = goalLogs[1]      // goal 2: odrust:repair
String sharedRepairLog = goalLogs[3] // goal 4: odrust:repair with odrust.isolation=classloader
String testLog = goalLogs[5]        // goal 6: test
// the progress line names the repair under way by its cause
assert repairLog =~ /odrust repair: repair 1 of 1 \(cause 1\), ~\d+ experiments?/ :
        "no progress line naming cause 1:\n" + repairLog.readLines().findAll { it.contains('odrust repair: repair') }.join('\n')
assert !log.toLowerCase().contains('conflict') : "build.log mentions a conflict:\n" +
        log.readLines().findAll { it.toLowerCase().contains('conflict') }.join('\n')

// ---- goal 1: detection found the four victims, each explained by the polluter and the cleaner
def report = new JsonSlurper().parse(new File(out, 'report.json'))
assert report.schema_version == 2 : "report.json schema_version " + report.schema_version + " (causes come with schema 2)"
assert report.module == MODULE : "report.json module " + report.module
assert report.complete == true : "detection did not finish: complete " + report.complete
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == VICTIMS as Set : "flaky: " + flaky.keySet()
assert flaky.values().every { it.kind == 'victim' } : "kinds: " + flaky.collectEntries { k, f -> [(k): f.kind] }
assert flaky.values().every { it.minimize_complete == true } : "explanations not complete: " + flaky.values().findAll { !it.minimize_complete }*.test
VICTIMS.each { v ->
    assert flaky[v].polluters == [[POLLUTER]] : "polluters of " + v + ": " + flaky[v].polluters
    assert flaky[v].cleaners == [(POLLUTER): [CLEANER]] : "cleaners of " + v + ": " + flaky[v].cleaners
}

// the victims share their polluters: one cause
assert report.causes instanceof List : "report.json has no causes array: " + report.keySet()
def victimCauses = report.causes.findAll { it.role == 'victim' }
assert victimCauses.size() == 1 : "expected one victim cause, found " + victimCauses.size() + ": " + report.causes
def cause = victimCauses[0]
assert cause.id == 1 : "the cause's id: " + cause.id
assert cause.tests instanceof List && cause.tests.size() == 4 && cause.tests as Set == VICTIMS as Set :
        "the cause's tests: " + cause.tests
assert cause.polluters == [[POLLUTER]] : "the cause's polluters: " + cause.polluters
assert cause.cleaners == [(POLLUTER): [CLEANER]] : "the cause's cleaners: " + cause.cleaners

// ---- one patch, for the cause, touching only the polluter's file, with the file's CRLF
def patchFiles = (repairDir.listFiles() ?: []).findAll { it.name.endsWith('.patch') }
assert patchFiles*.name == ['cause-1.patch'] : "patch files in " + repairDir + ": " + patchFiles*.name
File patchFile = patchFiles[0]
// lines split at \n only, so each keeps its \r
def patchLines = patchFile.getText('UTF-8').split('\n', -1) as List
if (!patchLines.isEmpty() && patchLines[-1].isEmpty()) {
    patchLines = patchLines.dropRight(1)
}
def headers = patchLines.findAll { it.startsWith('diff --git ') || it.startsWith('--- ') || it.startsWith('+++ ') }
assert headers.every { it.contains('a/app/src/test/java/') || it.contains('b/app/src/test/java/') } :
        patchFile.name + ": paths not relative to the reactor root (a/app/src/test/java/...): " + headers
assert patchLines.findAll { it.startsWith('diff --git ') }*.trim() == ['diff --git a/' + POLLUTER_PATH + ' b/' + POLLUTER_PATH] :
        patchFile.name + ": expected one file, the polluter's (" + POLLUTER_PATH + "): " + headers
assert patchLines.findAll { it.startsWith('--- ') }.collect { it.split('\t')[0].trim() } == ['--- a/' + POLLUTER_PATH] : patchFile.name + ": " + headers
assert patchLines.findAll { it.startsWith('+++ ') }.collect { it.split('\t')[0].trim() } == ['+++ b/' + POLLUTER_PATH] : patchFile.name + ": " + headers
// the hunks' lines: context, added, removed (the lines after the first @@)
int firstHunk = patchLines.findIndexOf { it.startsWith('@@ ') }
assert firstHunk >= 0 : patchFile.name + ": no hunk"
def body = patchLines.drop(firstHunk).findAll { !it.startsWith('@@ ') && !it.startsWith('\\') }
def added = body.findAll { it.startsWith('+') }
def removed = body.findAll { it.startsWith('-') }
assert !added.isEmpty() : patchFile.name + ": adds nothing"
assert removed.isEmpty() : patchFile.name + ": a repair only inserts code, yet it removes " + removed
def notCrlf = body.findAll { !it.endsWith('\r') }
assert notCrlf.isEmpty() : patchFile.name + ": the file is CRLF, yet these context/added lines end in a bare \\n: " + notCrlf
String addedText = added.collect { it.substring(1) }.join('\n')
assert !(addedText =~ /@(?:org\.junit\.)?After\b/) : patchFile.name + ": adds an @After method, the existing tearDown() should be extended:\n" + addedText

// ---- repair.json (goal 5's): one entry, for the cause
File repairJson = new File(repairDir, 'repair.json')
assert repairJson.isFile() : "missing " + repairJson
def repair = new JsonSlurper().parse(repairJson)
assert repair.module == MODULE : "repair.json module " + repair.module
assert repair.repairs instanceof List : "repair.json has no repairs array: " + repair.keySet()
assert repair.repairs.size() == 1 : "expected one entry (one cause) in repairs, found " + repair.repairs.size() + ": " + repair.repairs*.test
def entry = repair.repairs[0]
assert entry.members instanceof List && entry.members.size() == 4 && entry.members as Set == VICTIMS as Set :
        "the entry's members: " + entry.members
assert entry.test == entry.members[0] : "the entry's test is not its first member: " + entry.test + ", members " + entry.members
assert entry.status == 'patched' : "the cause's status " + entry.status + " (" + entry.reason + ")"
assert entry.patch instanceof String && entry.patch.endsWith('target/odrust/repair/cause-1.patch') : "the cause's patch: " + entry.patch
assert entry.file instanceof String && entry.file.endsWith(POLLUTER_FILE) : "the cause's file (the polluter's): " + entry.file
assert entry.applied == true : "goal 5 applied the patch, yet applied is " + entry.applied
// goal 2's end line counts test JVMs, as the entry does (not runs reused or that did not compile)
def ended = (repairLog =~ /odrust repair: (\d+) experiments? in /)
assert ended.find() : "goal 2 has no end line:\n" + repairLog
assert (ended.group(1) as int) == entry.experiments :
        "goal 2's end line says " + ended.group(1) + " experiments, the entry " + entry.experiments

// ---- goals 3-4: with odrust.isolation=classloader, the same findings and the same patch
File clOut = new File(app, 'target/classloader')
def clReport = new JsonSlurper().parse(new File(clOut, 'report.json'))
def findings = { r -> r.flaky.collect { [it.test, it.kind, it.polluters, it.cleaners] } as Set }
assert findings(clReport) == findings(report) : "classloader: " + findings(clReport)
def readJsonl = { File f -> f.readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) } }
def clDetect = readJsonl(new File(clOut, 'detect/experiments.jsonl'))
assert clDetect.any { it.isolation == 'classloader' && it.kind in ['polluter-search', 'polluter-pair', 'cleaner'] } :
        "no explanation experiment ran in a shared JVM"
assert sharedRepairLog.contains('candidates are minimized in shared JVMs with fresh class loaders') : sharedRepairLog
def clRepair = new JsonSlurper().parse(new File(clOut, 'repair/repair.json')).repairs[0]
assert clRepair.status == 'patched' : "classloader repair: " + clRepair.status + " (" + clRepair.reason + ")"
assert clRepair.statements == entry.statements : "classloader repair kept " + clRepair.statements + ", not " + entry.statements
assert new File(clOut, 'repair/cause-1.patch').getText('UTF-8') == patchFile.getText('UTF-8') : "another patch with classloader"
def clRepairRecords = readJsonl(new File(clOut, 'repair/experiments.jsonl'))
def sharedRuns = clRepairRecords.findAll { it.isolation == 'classloader' }
assert !sharedRuns.isEmpty() : "no candidate ran in a shared JVM"
assert sharedRuns.every { it.check == 'failing-order' && it.shareable == true } : "shared: " + sharedRuns*.check
def byId = clRepairRecords.collectEntries { [(it.id): it] }
clRepair.verification.each { v ->
    assert byId[v.experiment].isolation == null : "check " + v.check + " (experiment " + v.experiment + ") ran in a shared JVM"
}

// ---- the patched polluter: CRLF kept, its own tearDown() calls the helper, no new @After
File polluterSource = new File(app, POLLUTER_FILE)
byte[] polluterBytes = polluterSource.bytes
String patched = new String(polluterBytes, 'UTF-8')
String before = originalOf(POLLUTER_FILE).getText('UTF-8')
assert patched != before : POLLUTER_FILE + " was not patched"
assert patched.endsWith('\r\n') : POLLUTER_FILE + " no longer ends with CRLF"
String bare = patched.replace('\r\n', '')
assert !bare.contains('\n') && !bare.contains('\r') : POLLUTER_FILE + " lost its CRLF line endings on these lines: " +
        patched.split('\r\n', -1).findAll { it.contains('\n') || it.contains('\r') }.collect { show(it) }
def afters = { String s -> (s =~ /@(?:org\.junit\.)?After\b/).count }
assert afters(patched) == afters(before) : POLLUTER_FILE + ": " + afters(before) + " @After before the repair, " + afters(patched) + " after:\n" + patched
// the body of a method: from its header to the brace that closes it
def bodyOf = { String src, String header ->
    def m = src =~ header
    if (!m.find()) {
        return null
    }
    int open = src.indexOf('{', m.end())
    int depth = 0
    for (int i = open; i < src.length(); i++) {
        if (src.charAt(i) == '{') {
            depth++
        } else if (src.charAt(i) == '}' && --depth == 0) {
            return src.substring(open + 1, i)
        }
    }
    return null
}
String tearDown = bodyOf(patched, /void\s+tearDown\s*\(\s*\)/)
assert tearDown != null : POLLUTER_FILE + " has no tearDown() any more:\n" + patched
assert tearDown.contains('Settings.lookups = 0;') : "tearDown() lost its own statement:\n" + show(tearDown)
def calls = (tearDown =~ /\b(odrust\w*)\s*\(\s*\)\s*;/).collect { it[1] }
assert calls.size() == 1 : "tearDown() should call the odrust helper once, calls " + calls + ":\n" + show(tearDown)
String helper = calls[0]
assert (patched =~ ('void\\s+' + helper + '\\s*\\(')).count == 1 : POLLUTER_FILE + ": the helper " + helper + " is not declared once:\n" + patched
String helperBody = bodyOf(patched, 'void\\s+' + helper + '\\s*\\(\\s*\\)')
assert helperBody != null && helperBody.contains('Settings.mode = "default";') : "the helper " + helper + " does not restore the mode:\n" + helperBody

// ---- nothing else changed: the victims' files (and the cleaner's) are byte for byte as before
new File(app, TEST_DIR).listFiles().findAll { it.name.endsWith('.java') }.each { f ->
    String rel = TEST_DIR + f.name
    if (rel != POLLUTER_FILE) {
        assert f.bytes == originalOf(rel).bytes : rel + " was changed:\n" + show(f.getText('UTF-8'))
    }
}
assert !new File(app, 'src/main/java/com/example/causes/Settings.java').getText('UTF-8').contains('odrust') : "Settings.java was changed"

// ---- the command goal 2 printed applies the patch: reversed, it checks against the patched tree
def applyLines = repairLog.readLines().collect { it.replaceFirst(/^\[INFO\] /, '') }
        .findAll { it.startsWith('patched') && it.contains('`git apply') }
assert applyLines.size() == 1 : "goal 2: expected one 'patched' line with a `git apply` command, found:\n" + applyLines.join('\n')
def cm = applyLines[0] =~ /`(git apply[^`]*)`/
assert cm.find() : "goal 2: no `git apply ...` command in: " + applyLines[0]
String command = cm.group(1).trim()
assert command.contains('cause-1.patch') : "goal 2's command does not apply cause-1.patch: " + command
// inside a repository (the fixture runs in the odrust checkout's target/it), the command needs
// --directory=<the path from the repository's root to where mvn ran>
def prefixProc = ['git', 'rev-parse', '--show-prefix'].execute(null, base)
def prefixOut = new StringBuilder()
prefixProc.waitForProcessOutput(prefixOut, new StringBuilder())
String prefix = prefixProc.exitValue() == 0 ? prefixOut.toString().trim().replaceAll('/+$', '') : ''
if (prefix) {
    assert command =~ ('--directory=[\'"]?' + java.util.regex.Pattern.quote(prefix) + '/?[\'"]?(\\s|$)') :
            "goal 2's command, run in " + base + " (" + prefix + " of a repository), needs --directory=" + prefix + ": " + command
} else {
    assert !command.contains('--directory') : "goal 2's command outside a repository needs no --directory: " + command
}
String check = command.replaceFirst(/^git apply/, 'git apply -R --check -v')
def proc = new ProcessBuilder('sh', '-c', check).directory(base).redirectErrorStream(true).start()
String said = proc.inputStream.getText('UTF-8')
int exit = proc.waitFor()
assert exit == 0 : "`" + check + "` in " + base + " failed (exit " + exit + "; the applied file is not the patch's result):\n" + said
assert !said.contains('Skipped patch') && said.contains('Checking patch') : "`" + check + "` did not check the file:\n" + said

// ---- the repair is in report.json (the cause's fix), report.html (the cause card) and the Surefire XML
def after = new JsonSlurper().parse(new File(out, 'report.json'))
def fixes = after.causes.find { it.role == 'victim' }?.fixes
assert fixes instanceof List && fixes.size() == 1 : "report.json's cause has no fix: " + after.causes
def fix = fixes[0]
assert fix.status == 'patched' && fix.applied == true : "the cause's fix: " + fix
assert fix.tests as Set == VICTIMS as Set : "the fix's tests: " + fix.tests
assert fix.patch?.endsWith('cause-1.patch') && fix.apply?.startsWith('git apply') : "the fix's patch and command: " + fix
assert fix.diff?.contains('odrustClean') : "the fix has no diff: " + fix.diff
assert fix.checks.any { it.check == 'git-apply' && it.passed } : "no git-apply check: " + fix.checks
assert fix.checks.findAll { it.check != 'git-apply' }.every { it.passed } : "a failed check: " + fix.checks
String html = new File(out, 'report.html').getText('UTF-8')
assert html.contains('id="cause-1"') && html.contains('fixed by a verified patch to <code>') : "report.html has no fixed cause card"
assert html.contains('<pre class="diff">') : "report.html shows no diff"
String xml = new File(out, 'surefire-reports/TEST-odrust.xml').getText('UTF-8')
assert xml.contains('Cause 1: ') && xml.contains('Fix: a verified patch') : "the Surefire XML names no cause or fix"

// ---- goal 4: the module's tests, compiled from the patched source, pass in the original order
assert testLog.contains('Tests run: 7, Failures: 0, Errors: 0, Skipped: 0') : "goal 4 (test) did not run the 7 tests green:\n" +
        testLog.readLines().findAll { it.contains('Tests run') || it.contains('FAIL') }.join('\n')
return true
