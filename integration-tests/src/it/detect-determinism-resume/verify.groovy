import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').getText('UTF-8')
// All invocations append to one build.log; each starts with "Scanning for projects...".
def parts = log.split(/(?m)^.*Scanning for projects\.\.\..*$/).toList().drop(1)
assert parts.size() == 3 : "expected 3 invocations in build.log, found " + parts.size()
parts.eachWithIndex { p, i -> assert p.contains('BUILD SUCCESS') : "invocation " + (i + 1) + " failed" }

def report = { String run ->
    File f = new File(basedir, 'target/' + run + '/report.json')
    assert f.isFile() : "missing " + f
    // paths in the report name the output directory: compare them as if it were run1's
    def r = new JsonSlurper().parseText(f.getText('UTF-8').replace('target/' + run + '/', 'target/run1/'))
    // where the time went is measured, not planned: the rest must be the same
    assert r.time != null && r.time.experiments == r.experiments : "time: " + r.time
    r.remove('time')
    // each phase's time and predicted time are measured too; what ran and was predicted to run is planned
    assert r.phases != null && r.phases.sum { it.experiments } == r.experiments : "phases: " + r.phases
    assert r.phases.every { it.text.startsWith(it.phase == 'minimize' ? 'explanations' : it.phase == 'confirm' ? 'confirmations' : it.phase == 'alone' ? 'alone runs' : it.phase) } : "phases: " + r.phases
    assert r.phases.findAll { it.phase != 'baseline' }.every { it.predicted_experiments != null } : "a phase after the baseline has no prediction: " + r.phases
    r.phases = r.phases.collect { [it.phase, it.experiments, it.predicted_experiments] }
    r
}
def experiments = { String run ->
    File f = new File(basedir, 'target/' + run + '/detect/experiments.jsonl')
    assert f.isFile() : "missing " + f
    f.readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
}
// what an experiment is, without how long it took
def plan = { x -> [x.id, x.kind, x.round, x.strategy, x.order, x.targets] }

def r1 = report('run1')
assert r1.seed == 11 : "seed: " + r1.seed
assert r1.flaky.collect { [it.test, it.kind] } == [['com.example.det.CheckTest#startsEmpty', 'victim']] : "run1 flaky: " + r1.flaky.collect { [it.test, it.kind] }
assert r1.flaky[0].failing_order.startsWith('target/run1/orders/') : "failing_order is not under the output directory: " + r1.flaky[0].failing_order
assert new File(basedir, r1.flaky[0].failing_order).isFile() : "missing " + r1.flaky[0].failing_order
def e1 = experiments('run1')
assert e1.size() == r1.experiments : "run1: experiments.jsonl has " + e1.size() + " lines, report says " + r1.experiments
assert !new File(basedir, 'target/odrust/report.json').exists() : "odrust.outputDirectory ignored: target/odrust/report.json written"

// ---- determinism: run2 is run1
def r2 = report('run2')
r1.keySet().plus(r2.keySet()).each { k ->
    assert r1[k] == r2[k] : "report.json differs between two runs with one seed at '" + k + "':\n  run1: " + r1[k] + "\n  run2: " + r2[k]
}
def e2 = experiments('run2')
assert e2*.order == e1*.order : "run2 ran other orders than run1"
assert e2.collect(plan) == e1.collect(plan) : "run2 planned other experiments than run1"

// ---- resume: the killed run3, resumed, is run1
def kill = new Properties()
new File(basedir, 'prebuild-kill.properties').withInputStream { kill.load(it) }
int killedAt = kill.lines as int
assert killedAt >= 3 && killedAt < e1.size() : "the kill did not land midway: " + killedAt + " of " + e1.size()
def r3 = report('run3')
r1.keySet().plus(r3.keySet()).each { k ->
    assert r1[k] == r3[k] : "report.json of the resumed run differs at '" + k + "':\n  run1: " + r1[k] + "\n  run3: " + r3[k]
}
def e3 = experiments('run3')
assert e3.size() == e1.size() : "resumed run: " + e3.size() + " experiments, an uninterrupted run: " + e1.size() + " (finished experiments repeated or lost)"
assert e3*.order == e1*.order : "the resumed run ran other orders than run1"
assert e3.collect(plan) == e1.collect(plan) : "the resumed run planned other experiments than run1"
// the experiments finished before the kill were kept, not run again
def snapshot = new File(basedir, 'prebuild-snapshot.jsonl').getText('UTF-8')
def finished = snapshot.readLines().findAll { it.trim() }
if (kill.partial == 'true') {
    finished = finished.dropRight(1)
}
def e3Lines = new File(basedir, 'target/run3/detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }
assert e3Lines.take(finished.size()) == finished : "the resumed run rewrote experiments finished before the kill"
// invocation 3 printed a progress line only for what it ran
int progress3 = parts[2].readLines().count { it =~ /\[INFO\] exp \d+ / }
int progress1 = parts[0].readLines().count { it =~ /\[INFO\] exp \d+ / }
assert progress3 < progress1 : "the resumed run printed as many progress lines (" + progress3 + ") as a whole run (" + progress1 + ")"
return true
