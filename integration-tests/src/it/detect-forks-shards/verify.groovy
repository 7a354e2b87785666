import groovy.json.JsonOutput
import groovy.json.JsonSlurper

def P = 'com.example.explain.'
String log = new File(basedir, 'build.log').getText('UTF-8')

def report = { String dir ->
    String text = new File(basedir, "target/${dir}/report.json").getText('UTF-8').replace("target/${dir}/", 'target/OUT/')
    def r = new JsonSlurper().parseText(text)
    // timings are what may differ: the baseline's JVM start and what it predicts, where the time went
    r.remove('time')
    // each phase's time and predicted time are measured; what ran and was predicted to run is planned
    r.phases = r.phases?.collect { [it.phase, it.experiments, it.predicted_experiments] }
    if (r.plan != null) {
        r.plan.remove('cost0_ms')
        r.plan.remove('predicted_ms')
        if (r.plan.tuscan != null) {
            r.plan.tuscan.remove('cost0_ms')
            r.plan.tuscan.remove('predicted_ms')
        }
    }
    r
}
def experiments = { String dir ->
    new File(basedir, "target/${dir}/detect/experiments.jsonl").readLines('UTF-8').findAll { it.trim() }
            .collect { new JsonSlurper().parseText(it) }
            .collect { [it.id, it.kind, it.round, it.order, it.targets, it.results.collect { r -> [r.test, r.outcome] }] }
}

def one = report('forks-1')
def two = report('forks-2')
// ---- the same plan, the same outcomes, the same report
assert experiments('forks-1') == experiments('forks-2') : "the experiments differ between 1 and 2 forks"
def stripMs = { r -> JsonOutput.toJson(r).replaceAll(/"(cost0_ms|predicted_ms)":\d+,?/, '') }
assert stripMs(one) == stripMs(two) : "report.json differs between 1 and 2 forks"

// ---- and it found what the fixture has: a victim, a brittle and a NOD test
def kinds = two.flaky.collectEntries { [(it.test): it.kind] }
assert kinds[P + 'VictimTest#expectsClean'] == 'victim' : "kinds: " + kinds
assert kinds[P + 'BrittleTest#needsConfig'] == 'brittle' : "kinds: " + kinds
assert kinds[P + 'ExperimentCoinTest#flips'] == 'nod' : "kinds: " + kinds
assert !two.flaky.find { it.test == P + 'VictimTest#expectsClean' }.polluters.isEmpty() : "the victim was explained"

// ---- the run with 2 forks said so, ran experiments in their own directories and cleaned them up
assert log.contains(', 2 forks, each experiment in its own working directory') : "the run line names the forks"
assert log.contains('; 2 experiments at a time (odrust.forks)') : "the plan line names the forks"
assert !new File(basedir, 'target/forks-2/forks').exists() : "the experiments' working directories are left behind"
assert !new File(basedir, 'target/forks-1/forks').exists() : "one fork runs in the module's directory"

// ---- a bad setting is named, with what it should be
assert log.contains('odrust.forks must be 1 or more (got 0)') : "goal 10 did not name the bad setting"
assert !new File(basedir, 'target/forks-0/detect').exists() : "goal 10 touched disk before checking its settings"

def json = { String path -> new JsonSlurper().parse(new File(basedir, path)) }
def rounds = { String dir ->
    new File(basedir, "target/${dir}/detect/experiments.jsonl").readLines('UTF-8').findAll { it.trim() }
            .collect { new JsonSlurper().parseText(it) }.findAll { it.kind == 'round' }
            .collect { [it.round, it.order] }
}

def whole = json('target/forks-1/report.json')
def merged = json('target/merged/report.json')
def shard = (1..3).collect { json("target/shards/s${it}/report.json") }

// ---- each shard ran its share of the plan's rounds, and stands alone
(1..3).each { k ->
    def mine = rounds("shards/s${k}")
    assert !mine.isEmpty() : "shard ${k} ran no round"
    assert mine.every { (it[0] - 1) % 3 == k - 1 } : "shard ${k} ran rounds " + mine*.getAt(0)
    assert shard[k - 1].shard == [index: k, count: 3] : "shard ${k}'s report: " + shard[k - 1].shard
    assert shard[k - 1].notes.any { it.startsWith("shard ${k} of 3: ") } : "shard ${k} says what it is: " + shard[k - 1].notes
}
// together, exactly the whole run's rounds, each once
def union = (1..3).collectMany { rounds("shards/s${it}") }.sort { it[0] }
assert union == rounds('forks-1').sort { it[0] } : "the shards' rounds are not the plan's"

// ---- the merged report: the same OD tests and the same pair coverage as the whole run
def od = { r -> r.flaky.findAll { it.kind in ['victim', 'brittle'] }.collectEntries { [(it.test): it.kind] } }
assert od(whole) == [(P + 'VictimTest#expectsClean'): 'victim', (P + 'BrittleTest#needsConfig'): 'brittle'] : "whole: " + od(whole)
assert od(merged) == od(whole) : "merged: " + od(merged)
assert merged.pairs == whole.pairs : "pairs: merged " + merged.pairs + ", whole " + whole.pairs
assert merged.rounds_run == whole.rounds_run : "rounds: merged " + merged.rounds_run + ", whole " + whole.rounds_run
assert merged.complete == true
assert merged.shards*.index == [1, 2, 3] : "shards: " + merged.shards
assert merged.notes[0].startsWith('merged from 3 shards (seed 3, tuscan)') : merged.notes[0]
merged.flaky.each { f ->
    assert f.shard in [1, 2, 3] : "no shard on " + f.test
    // its order files are the shard's, and exist
    assert f.failing_order.startsWith("target/shards/s${f.shard}/orders/") : f.failing_order
    assert new File(basedir, f.failing_order).isFile() : f.failing_order
    assert f.reproduce == "mvn odrust:reproduce -Dodrust.order=" + f.failing_order : f.reproduce
}
assert new File(basedir, 'target/merged/report.html').isFile()
assert new File(basedir, 'target/merged/surefire-reports/TEST-odrust.xml').isFile()

// ---- shards of two plans are refused, naming what differs; a shard needs a seed
assert log.contains('these shards are not of one plan: seed: 4 in target/other/s1, 3 in target/shards/s2') : "the mismatch was not named"
assert !new File(basedir, 'target/mismatched/report.json').exists() : "a refused merge wrote a report"
assert log.contains('odrust.shard=2/3 needs -Dodrust.seed') : "a shard without a seed was not refused"

// ---- isolation=classloader: the same findings, later rounds in shared JVMs, the check on record
def shared = json('target/classloader/report.json')
def found = { r -> r.flaky.collectEntries { [(it.test): it.kind] } }
assert found(shared) == found(whole) : "classloader: " + found(shared) + ", fresh JVMs: " + found(whole)
assert found(shared)[P + 'ExperimentCoinTest#flips'] == 'nod'
def victimOf = { r -> r.flaky.find { it.test == P + 'VictimTest#expectsClean' }.polluters }
assert victimOf(shared) == victimOf(whole) : "polluters: " + victimOf(shared)
assert shared.pairs == whole.pairs : "pairs: " + shared.pairs
def records = new File(basedir, 'target/classloader/detect/experiments.jsonl').readLines().collect { new JsonSlurper().parseText(it) }
def inShared = records.findAll { it.isolation == 'classloader' }
assert !inShared.isEmpty() : "no round ran in a shared JVM"
def explaining = ['polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair']
assert inShared.every { it.kind == 'round' || it.kind == 'alone' || it.kind in explaining } : "only rounds, alone runs and explanations run in shared JVMs: " + inShared*.kind.unique()
assert inShared.any { it.kind in explaining } : "no explanation experiment ran in a shared JVM"
// each OD test's first alone run is fresh (its classification is seen in a fresh JVM), later ones share
def aloneRuns = records.findAll { it.kind == 'alone' }.groupBy { it.targets[0] }
assert !aloneRuns.isEmpty()
aloneRuns.each { test, runs -> assert runs[0].isolation == null : "the first alone run of " + test + " ran in a shared JVM" }
assert aloneRuns.values().any { runs -> runs.drop(1).any { it.isolation == 'classloader' } } : "no later alone run shared a JVM"
// the same cleaners and state-setters, and each reported claim was run again in a fresh JVM
def claims = { r -> r.flaky.collect { [it.test, it.polluters, it.cleaners, it.state_setters] } }
assert claims(shared) == claims(whole) : "classloader: " + claims(shared) + ", fresh JVMs: " + claims(whole)
def freshRun = { order -> records.any { it.isolation == null && it.order == order } }
shared.flaky.each { t ->
    t.polluters.each { g -> assert freshRun(g + [t.test]) : "polluter " + g + " of " + t.test + " not run in a fresh JVM" }
    t.state_setters.each { g -> assert freshRun(g + [t.test]) : "state-setter " + g + " of " + t.test + " not run in a fresh JVM" }
    t.cleaners.each { p, cs -> cs.each { c -> assert freshRun([p, c, t.test]) : "cleaner " + c + " not run in a fresh JVM" } }
}
assert shared.notes.any { it.contains('explanation experiments ran in shared JVMs') && it.contains('was run again in a fresh JVM') } : shared.notes
// the first two rounds ran in fresh JVMs, for the check
assert records.findAll { it.kind == 'round' }.take(2).every { it.isolation == null }
def check = json('target/classloader/detect/isolation-check.json')
assert check.used == true && check.checked.size() == 4 && check.checked.every { it.same } : "check: " + check
assert check.not_compared == [P + 'ExperimentCoinTest#flips'] : "not compared: " + check.not_compared
assert shared.notes.any { it.contains(' rounds, ') && it.contains(' alone runs and ') && it.contains('ran in shared JVMs with fresh class loaders') && it.contains("each OD test's first alone run ran in fresh JVMs") } : shared.notes
assert log.contains('isolation=classloader: the original order, the original order again, round 1, round 2 gave every test the same outcome')
assert new File(basedir, 'target/classloader/detect/shared-jvm-1.log').isFile()
// the plan prices the rounds after the check as shared ones, and says what they cost if it refuses them
assert log.readLines().any { it.contains('plan: tuscan: ') && it.contains('; with shared JVMs predicted ') && it.contains(': 2 in fresh JVMs at ~') && it.contains(' in shared JVMs at ~') && it.contains(' each once the isolation check passes (') && it.contains(' if it refuses them)') } : "no plan line with the shared rounds' prediction"
assert log.readLines().count { it.contains('; with shared JVMs predicted ') } == 2 : "only the two classloader runs' plans speak of shared JVMs"
// the progress line says which rounds ran in a shared JVM
assert log.readLines().any { it.contains('round') && it.endsWith('(shared JVM)') } : "no progress line marks a shared round"
assert log.contains('odrust.isolation=thread is not an isolation: use jvm') : "a wrong isolation was not refused"
def sharedForks = json('target/classloader-forks/report.json')
assert found(sharedForks) == found(whole) : "classloader, 2 forks: " + found(sharedForks)
assert victimOf(sharedForks) == victimOf(whole)
assert sharedForks.pairs == whole.pairs
def forkRecords = new File(basedir, 'target/classloader-forks/detect/experiments.jsonl').readLines().collect { new JsonSlurper().parseText(it) }
assert forkRecords.count { it.isolation == 'classloader' } > 0 : "no shared round with 2 forks"
// the shared JVMs' own working directories are gone with them
assert !new File(basedir, 'target/classloader-forks/forks').exists() : "target/classloader-forks/forks was left behind"
