import groovy.json.JsonSlurper

def runDir = { String name -> new File(basedir, "target/odrust/run-order/" + name) }
def load = { String name ->
    File f = new File(runDir(name), "result.json")
    assert f.isFile() : "missing " + f
    new JsonSlurper().parse(f)
}
def P = 'com.example.pv.PolluterTest#pollutes'
def V = 'com.example.pv.VictimTest#victim'
def outcomes = { r -> r.results.collectEntries { [(it.test): it.outcome] } }

// ---- [p, v]
def pv = load('pv')
assert pv.schema_version == 1 : "schema_version: " + pv.schema_version
assert pv.module == 'com.example:junit4-victim-polluter' : "module: " + pv.module
assert pv.order_source == 'orders/pv.txt' : "order_source: " + pv.order_source
assert pv.requested == [P, V] : "requested: " + pv.requested
assert pv.honoured == true : "pv not honoured: " + pv.first_difference
assert pv.first_difference == null
assert pv.results*.test == [P, V] : "pv ran " + pv.results*.test
assert pv.results[0].outcome == 'pass' : "polluter: " + pv.results[0]
assert pv.results[1].outcome == 'fail' : "victim after polluter must fail: " + pv.results[1]
assert pv.results[1].message != null && pv.results[1].message.contains('left set by another test') : "victim message: " + pv.results[1].message
assert pv.results.every { it.jvm == 1 } : "one JVM expected: " + pv.results
assert pv.results.every { it.time_ms instanceof Number && it.time_ms >= 0 } : "time_ms: " + pv.results
assert pv.segments.size() == 2 : "segments: " + pv.segments
assert pv.segments.collect { it['class'] } == ['com.example.pv.PolluterTest', 'com.example.pv.VictimTest'] : "segments: " + pv.segments
assert pv.segments.every { it.framework == 'junit4' && it.split == null } : "segments: " + pv.segments
assert pv.jvms.size() == 1 && pv.jvms[0].index == 1 && pv.jvms[0].status == 'ok' : "jvms: " + pv.jvms
assert pv.summary.pass == 1 && pv.summary.fail == 1 : "summary: " + pv.summary
['error', 'skipped', 'crash', 'timeout', 'exit', 'not-run'].each { k ->
    assert pv.summary[k] == 0 : "summary." + k + ": " + pv.summary
}
['plan-1.txt', 'events-1.jsonl', 'jvm-1.log'].each { n ->
    assert new File(runDir('pv'), n).isFile() : "missing " + n + " in " + runDir('pv')
}
def plan = new File(runDir('pv'), 'plan-1.txt').readLines('UTF-8')
assert plan[0] == 'odrust-plan\t1' : "plan header: " + plan[0]
assert plan.findAll { it.startsWith('test\t') }*.substring(5) == [P, V] : "plan tests: " + plan
def events = new File(runDir('pv'), 'events-1.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert events*.event.contains('end') : "events without end: " + events*.event
assert events.findAll { it.event == 'test' }*.test == [P, V] : "events: " + events

// ---- [v, p]
def vp = load('vp')
assert vp.order_source == 'orders/vp.txt' : "order_source: " + vp.order_source
assert vp.requested == [V, P] : "requested: " + vp.requested
assert vp.honoured == true : "vp not honoured: " + vp.first_difference
assert vp.results*.test == [V, P] : "vp ran " + vp.results*.test
assert vp.results.every { it.outcome == 'pass' } : "vp: both must pass: " + vp.results
assert vp.summary.pass == 2 && vp.summary.fail == 0 : "summary: " + vp.summary

// ---- inline [v, p, v] (no odrust.name: folder "inline")
def inl = load('inline')
assert inl.requested == [V, P, V] : "requested: " + inl.requested
assert inl.honoured == true : "inline not honoured: " + inl.first_difference
assert inl.results*.test == [V, P, V] : "inline ran " + inl.results*.test
assert inl.results*.outcome == ['pass', 'pass', 'fail'] : "inline outcomes: " + inl.results*.outcome
assert inl.segments.size() == 3 : "inline segments: " + inl.segments

// ---- reproduce alias with odrust.name=again
def again = load('again')
assert again.results*.test == [P, V] : "again ran " + again.results*.test
assert again.results*.outcome == ['pass', 'fail'] : "again outcomes: " + again.results*.outcome

// the failing victim did not fail the Maven build (the invocations are expected to succeed)
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 5 : "expected 5 successful builds in build.log"
// the outcome line of a failing order is a warning
assert log.readLines().any { it.startsWith('[WARNING] run-order: 2 tests in 1 JVM') } : "no warning outcome line for [p, v]"
// -Dodrust.failOnFailure=true under -q: the build fails, saying why
assert log.contains('1 test of the order did not pass') : "odrust.failOnFailure=true did not fail the build"
assert load('strict').results*.outcome == ['pass', 'fail'] : "strict outcomes"
assert !runDir('skipped').exists() : "-Dodrust.skip=true still ran the order"
return true
