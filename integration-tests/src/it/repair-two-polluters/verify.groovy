import groovy.json.JsonSlurper

def P = 'com.example.two.'
def VICTIM = P + 'AppTest#usesDefaults'
def OTHER = P + 'AppTest#formatsDefaults'
def LOCALE = P + 'LocaleTest#switchesToFrench'
def ZONE = P + 'ZoneTest#switchesToCet'
def CLEANER = P + 'CleanupTest#restoresEnglish'

File base = new File("$basedir")
File out = new File(base, 'target/odrust')
File repairDir = new File(out, 'repair')
String log = new File(base, 'build.log').getText('UTF-8').replaceAll(/\u001B\[[0-9;]*m/, '')

// ---- both goals succeeded (a repair with no patch is not a failed build)
assert log.count('BUILD SUCCESS') == 2 : "expected 2 successful builds in build.log, found " + log.count('BUILD SUCCESS')
assert !log.contains('BUILD FAILURE') : "a goal failed"
String repairLog = log.split('BUILD SUCCESS')[1]

// ---- goal 1: two victims of two polluters; the locale's has a cleaner, the zone's none, both
// searches complete
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [VICTIM, OTHER] as Set : "flaky: " + flaky.keySet()
[VICTIM, OTHER].each { t ->
    def v = flaky[t]
    assert v.kind == 'victim' : t + ": " + v.kind
    assert v.polluters as Set == [[LOCALE], [ZONE]] as Set : t + " polluters: " + v.polluters
    assert v.cleaners == [(LOCALE): [CLEANER], (ZONE): []] : t + " cleaners: " + v.cleaners
    assert v.minimize_complete == true && v.cleaners_unfinished == [] : t + " explanation: " + v.minimize_complete + ", " + v.cleaners_unfinished
}

// ---- goal 2: the cleaner is not run; the cause (both victims) is rejected, then each of them,
// saying why, with no test JVM
def repair = new JsonSlurper().parse(new File(repairDir, 'repair.json'))
assert repair.repairs*.test as Set == [VICTIM, OTHER] as Set : "repair.json entries: " + repair.repairs*.test
repair.repairs.each { e ->
    String t = e.test
    assert e.status == 'rejected' : t + ": " + e.status + " (" + e.reason + ")"
    assert e.reason.startsWith('no candidate can pass every check: 1 cleaner cleaning after one of its polluters does not clean after another') :
            t + " reason: " + e.reason
    assert e.tried.size() == 1 : t + " tried: " + e.tried
    assert e.tried[0].source.test == CLEANER && e.tried[0].source.polluter == LOCALE : t + " tried: " + e.tried[0].source
    assert e.tried[0].why.startsWith('not run: it cleans after ' + LOCALE + ' but not after ' + ZONE + ', another polluter of ' + t) :
            t + " why: " + e.tried[0].why
    assert e.tried[0].why.contains('[' + ZONE + ', ' + t + ']') : t + " the check named: " + e.tried[0].why
    assert e.patch == null : t + " a patch: " + e.patch
    assert e.split instanceof String && e.split.startsWith('cause 1 split in 2 parts: no candidate could be tried for its 2 tests together (no candidate can pass every check') :
            t + " split: " + e.split
}
// no test JVM: not even the failing order unpatched
File records = new File(repairDir, 'experiments.jsonl')
int ran = records.exists() ? records.readLines().findAll { it.trim() }.size() : 0
assert ran == 0 : ran + " repair experiments recorded"
assert repair.phases[0].experiments == 0 : "phases: " + repair.phases
assert repairLog.contains('[WARNING] cause 1 split in 2 parts: no candidate could be tried for its 2 tests together') :
        "the console:\n" + repairLog.readLines().findAll { it.contains('split') }.join('\n')
[VICTIM, OTHER].each { t ->
    assert repairLog.contains('[WARNING] no patch ' + t + ': no candidate can pass every check') :
            "the console:\n" + repairLog.readLines().findAll { it.contains('no patch') }.join('\n')
}

// ---- nothing of the user's changed
assert new File(base, 'src/test/java/com/example/two/AppTest.java').text.contains('assertEquals("UTC", Settings.zone());')
true
