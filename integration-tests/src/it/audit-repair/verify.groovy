import groovy.json.JsonSlurper

def P = 'com.example.fix.'
File base = new File("$basedir")
File out = new File(base, 'target/odrust/audit')
String log = new File(base, 'build.log').getText('UTF-8')
def goals = log.split('Building audit-repair 1.0-SNAPSHOT').drop(1)
assert goals.size() == 3

// ---- goal 1: the audit, then a patch per latent polluter that can have one
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def latent = report.outcome.latent_polluters.collectEntries { [(it.test): it] }
assert latent.keySet() == [P + 'CountsTest#counts', P + 'FillsCacheTest#fills', P + 'RemembersTest#remembers', P + 'LeavesModeTest#setsMode', P + 'SetsPropertyTest#setsFlag'] as Set :
        "latent polluters: " + latent.keySet()

// the module's own reset method, called last from the class's own @AfterEach
def cache = latent[P + 'FillsCacheTest#fills'].fix
assert cache.status == 'patched' : cache
assert cache.statements == ['com.example.fix.Cache.clear();']
assert cache.file == 'src/test/java/com/example/fix/FillsCacheTest.java'
assert cache.experiments.size() == 1
// the field's value before the test (its state right after initialization) set back in a new @After
def mode = latent[P + 'LeavesModeTest#setsMode'].fix
assert mode.status == 'patched' : mode
assert mode.statements == ['com.example.fix.Settings.mode = "default";']
// the module's reset method runs first and leaves -1, not 0: rejected by its run, then the value set back
def count = latent[P + 'CountsTest#counts'].fix
assert count.status == 'patched' : count
assert count.statements == ['com.example.fix.Counter.count = 0;'] : count
assert count.tried.size() == 1 && count.tried[0].startsWith('com.example.fix.Counter.reset();: experiment ') : count.tried
assert count.tried[0].contains('com.example.fix.Counter.count still differs after the test (0 before, -1 after)') : count.tried
// the test class's own list: the patched class is loaded from the candidate's directory and captured
def seen = latent[P + 'RemembersTest#remembers'].fix
assert seen.status == 'patched' : seen
assert seen.statements == ['com.example.fix.RemembersTest.SEEN.clear();'] : seen
// JDK state: no patch, with why
def prop = latent[P + 'SetsPropertyTest#setsFlag'].fix
assert prop.status == 'no-patch' && prop.reason.startsWith('JDK state') : prop

// each verifying run: the original order with the candidate's class first, captured in its class
def records = new File(out, 'experiments.jsonl').readLines().collect { new JsonSlurper().parseText(it) }
def fixRuns = records.findAll { it.kind == 'fix' }
assert fixRuns.size() == 5 : fixRuns*.id
assert (cache.experiments + mode.experiments + count.experiments + seen.experiments).every { it in fixRuns*.id }
assert fixRuns.every { it.order.size() == report.tests && it.fix != null }
// Settings and Cache are first initialized by the polluters: initialized right before their block
def modeRun = fixRuns.find { it.fix.test == P + 'LeavesModeTest#setsMode' }
assert modeRun.initialize_at*.class == [P + 'Settings'] : modeRun.initialize_at
assert modeRun.capture_tests == [P + 'LeavesModeTest']
// the polluters that initialize their field's class get one control run without a patch each
def controls = records.findAll { it.kind == 'fix-control' }
assert controls*.fix*.test as Set == [P + 'CountsTest#counts', P + 'FillsCacheTest#fills', P + 'LeavesModeTest#setsMode'] as Set : controls*.fix
assert controls.every { it.fix.candidate == '' && it.initialize_at.size() == 1 }
// the test class's own field: its class is initialized before its test, so no class first, no control
def seenRun = fixRuns.find { it.fix.test == P + 'RemembersTest#remembers' }
assert seenRun.initialize_at == [] : seenRun.initialize_at

// the patches: as the console says, never written into the sources
assert goals[0].contains('odrust audit: making teardown patches for 4 latent polluters')
assert goals[0].contains('  patch: ' + cache.patch + ' (its teardown runs `com.example.fix.Cache.clear();`, verified in experiment ')
assert goals[0].contains('no patch: JDK state')
File originals = new File(base, 'prebuild-originals')
originals.eachFileRecurse(groovy.io.FileType.FILES) { File f ->
    File now = new File(base, 'src/test/java/' + originals.toPath().relativize(f.toPath()).toString())
    assert now.bytes == f.bytes : now.path + " was changed by the audit"
}
File cachePatch = new File(base, cache.patch)
String cacheText = cachePatch.getText('UTF-8')
assert cacheText.contains('+        odrustCleanAfterFills();\r\n') : cacheText
assert cacheText.contains('+    // odrust: sets back com.example.fix.Cache.ENTRIES, which the test fills() leaves changed\r\n')
String modeText = new File(base, mode.patch).getText('UTF-8')
assert modeText.contains('+    @After\n+    public void odrustCleanAfterSetsMode() {\n+        com.example.fix.Settings.mode = "default";\n')
assert modeText.contains('+import org.junit.After;\n')

// both apply as written to a copy, and keep the CRLF file CRLF
File copy = File.createTempDir('odrust-audit-repair', '')
def src = new File(base, 'src').toPath()
java.nio.file.Files.walk(src).each { java.nio.file.Path f ->
    def to = copy.toPath().resolve('src').resolve(src.relativize(f).toString())
    if (java.nio.file.Files.isDirectory(f)) {
        to.toFile().mkdirs()
    } else {
        java.nio.file.Files.copy(f, to)
    }
}
[cachePatch, new File(base, mode.patch)].each { File patch ->
    def p = ['git', 'apply', patch.absolutePath].execute(null, copy)
    String err = p.err.text
    assert p.waitFor() == 0 : "git apply " + patch + ": " + err
}
String patched = new File(copy, 'src/test/java/com/example/fix/FillsCacheTest.java').getText('UTF-8')
assert patched.contains('        odrustCleanAfterFills();\r\n    }\r\n')
assert !patched.replace('\r\n', '').contains('\n') : "a bare LF in the patched CRLF file"
copy.deleteDir()

def html = new File(out, 'report.html').getText('UTF-8')
assert html.contains('<p class="fix patched">')

// ---- goal 2: nothing runs again; the same patches
assert goals[1].contains('continuing an earlier audit')
assert !goals[1].contains('[audit ')
assert goals[1].contains('  patch: ' + cache.patch + ' (its teardown runs `com.example.fix.Cache.clear();`')
def again = new JsonSlurper().parse(new File(out, 'report.json'))
assert again.outcome.latent_polluters*.fix == report.outcome.latent_polluters*.fix

// ---- goal 3: a limit without repair, refused with the fix
assert goals[2].contains('odrust.audit.repair.limit is set but odrust.audit.repair is not: add -Dodrust.audit.repair=true')
true
