import groovy.json.JsonSlurper

def P = 'com.example.explain.'
def VICTIM = P + 'VictimTest#expectsClean'
def POLLUTER_1 = P + 'AlphaPolluterTest#leavesDirty'
def POLLUTER_2 = P + 'BravoPolluterTest#alsoLeavesDirty'
def CLEANER_SAME_CLASS = P + 'AlphaPolluterTest#tidiesUp'
def CLEANER_THIRD_CLASS = P + 'CharlieResetTest#resets'
def BRITTLE = P + 'BrittleTest#needsConfig'
def SETTER_1 = P + 'DeltaSetterTest#loadsConfig'
def SETTER_2 = P + 'EchoSetterTest#loadsConfigToo'
def MINIMIZE_KINDS = ['polluter-search', 'polluter-pair', 'cleaner', 'setter-search', 'setter-pair']

File out = new File(basedir, 'target/odrust')
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def exps = new File(out, 'detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }
        .collect { new JsonSlurper().parseText(it) }
String log = new File(basedir, 'build.log').getText('UTF-8')

// ---- goal 1 stopped at its budget of 4, and said so; goal 2 resumed with minimization off
assert log.contains("the run's budget of 4 explanation experiments is spent") : "goal 1 did not say its budget was spent"
def explaining = exps.findAll { it.kind in MINIMIZE_KINDS }
assert explaining.size() > 4 : "goal 3 explained further: " + explaining.size()
def firstExplaining = exps.findIndexOf { it.kind in MINIMIZE_KINDS }
assert exps.drop(firstExplaining).every { it.kind in MINIMIZE_KINDS } : "explanation experiments come last"
assert exps*.id == (1..exps.size()).toList() : "ids are the positions: " + exps*.id
// goal 2 printed the partial explanation (nothing new was run: minimization was off)
assert log.count('odrust detect: ') >= 3 : "three runs"

// ---- the final report: exact sets
assert report.complete == true : "the last run finished: " + report.complete
def byTest = report.flaky.collectEntries { [(it.test): it] }
assert byTest.keySet() == [VICTIM, BRITTLE] as Set : "flaky: " + byTest.keySet()
def v = byTest[VICTIM]
def b = byTest[BRITTLE]
assert v.kind == 'victim' && b.kind == 'brittle' : "kinds: " + v.kind + ", " + b.kind
assert v.polluters.every { it.size() == 1 } : "single polluters: " + v.polluters
assert v.polluters.collect { it[0] }.sort() == [POLLUTER_1, POLLUTER_2] : "polluters: " + v.polluters
assert v.cleaners.keySet() == [POLLUTER_1, POLLUTER_2] as Set : "cleaners: " + v.cleaners
[POLLUTER_1, POLLUTER_2].each { p ->
    assert v.cleaners[p].sort() == [CLEANER_SAME_CLASS, CLEANER_THIRD_CLASS] : "cleaners of " + p + ": " + v.cleaners[p]
}
assert b.state_setters.every { it.size() == 1 } : "single state-setters: " + b.state_setters
assert b.state_setters.collect { it[0] }.sort() == [SETTER_1, SETTER_2] : "state-setters: " + b.state_setters
assert v.minimize_complete && b.minimize_complete : "explanations complete"
// every culprit and cleaner was verified by its own run: [p, v], [p, c, v], [s, b]
def ran = exps.collect { it.order }
[POLLUTER_1, POLLUTER_2].each { p -> assert [p, VICTIM] in ran : "no pair run of " + p }
[POLLUTER_1, POLLUTER_2].each { p ->
    [CLEANER_SAME_CLASS, CLEANER_THIRD_CLASS].each { c -> assert [p, c, VICTIM] in ran : "no triple run of " + p + ", " + c }
}
[SETTER_1, SETTER_2].each { s -> assert [s, BRITTLE] in ran : "no pair run of " + s }
// an explanation experiment never reruns an order that already ran (its outcome is reused)
exps.eachWithIndex { e, i ->
    if (e.kind in MINIMIZE_KINDS) {
        assert !(e.order in ran.take(i)) : "experiment " + e.id + " reran an order: " + e.order
    }
}

// ---- exact flake rates, enumerated here independently of the engine. The victim fails iff the
// last of the polluters and cleaners before it is a polluter; the brittle iff no state-setter
// precedes it. All orders: every permutation of the relevant tests. Class-compatible: every
// order of the classes and, inside each class, of its relevant tests.
def permutations = { List l -> l.size() <= 1 ? [l] : l.collectMany { x -> owner.call(l - [x]).collect { [x] + it } } }
def victimFails = { List order ->
    def before = order.take(order.indexOf(VICTIM)).findAll { it != VICTIM }
    !before.isEmpty() && before.last() in [POLLUTER_1, POLLUTER_2]
}
def brittleFails = { List order -> !order.take(order.indexOf(BRITTLE)).any { it in [SETTER_1, SETTER_2] } }
def rate = { List tests, Closure fails -> def all = permutations(tests); all.count { fails(it) } / all.size() }
def classOf = { String t -> t.substring(0, t.indexOf('#')) }
def classRate = { List tests, Closure fails ->
    def classes = tests.groupBy(classOf).values().toList()
    def orders = permutations(classes).collectMany { cs ->
        cs.inject([[]]) { acc, cls -> acc.collectMany { prefix -> permutations(cls).collect { prefix + it } } }
    }
    orders.count { fails(it) } / orders.size()
}
def victimTests = [VICTIM, POLLUTER_1, POLLUTER_2, CLEANER_SAME_CLASS, CLEANER_THIRD_CLASS]
def brittleTests = [BRITTLE, SETTER_1, SETTER_2]
def expect = { String what, actual, expected ->
    assert Math.abs(actual - expected) < 1e-9 : what + ": " + actual + ", expected " + expected
}
expect('victim, all orders', v.flake_rate.all_orders, rate(victimTests, victimFails))          // 2/5
expect('victim, class-compatible', v.flake_rate.class_compatible, classRate(victimTests, victimFails)) // 3/8
expect('brittle, all orders', b.flake_rate.all_orders, rate(brittleTests, brittleFails))       // 1/3
expect('brittle, class-compatible', b.flake_rate.class_compatible, classRate(brittleTests, brittleFails)) // 1/3
expect('victim, hand-computed', v.flake_rate.all_orders, 0.4)
expect('victim class-compatible, hand-computed', v.flake_rate.class_compatible, 0.375)
assert v.flake_rate.incomplete == null && b.flake_rate.incomplete == null : "complete rates carry no mark"

return true
