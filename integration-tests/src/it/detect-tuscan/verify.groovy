import groovy.json.JsonSlurper

def P = 'com.example.tuscan.'
def report = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
assert report.strategy == 'tuscan' : "strategy " + report.strategy
// the whole schedule ran: 6 orders for 6 tests, every ordered pair covered
assert report.rounds_planned == 6 && report.rounds_run == 6 : "rounds " + report.rounds_run + "/" + report.rounds_planned
assert report.pairs.total == 30 && report.pairs.covered == 30 : "pairs " + report.pairs
// checked independently of odrust's own count: every ordered pair consecutive in some round
def exps = new File(basedir, 'target/odrust/detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }
        .collect { new JsonSlurper().parseText(it) }
def rounds = exps.findAll { it.kind == 'round' }
def tests = new JsonSlurper().parse(new File(basedir, 'target/odrust/suite.json')).classes.collectMany { it.tests }
assert tests.size() == 6 : "tests " + tests
def consecutive = [] as Set
rounds.each { r -> (0..<r.order.size() - 1).each { i -> consecutive << [r.order[i], r.order[i + 1]] } }
tests.each { a -> tests.each { b -> if (a != b) assert consecutive.contains([a, b]) : "never consecutive: " + a + " then " + b } }
// every victim with a single polluter is found, and nothing else
def kinds = report.flaky.collectEntries { [(it.test): it.kind] }
assert kinds == [(P + 'AlphaVictimTest#checksOne'): 'victim', (P + 'BetaVictimTest#checksTwo'): 'victim'] : "flaky " + kinds
return true
