import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').getText('UTF-8')
def runs = log.split('Scanning for projects...').findAll { it.contains('BUILD ') }
assert runs.size() == 3 : "expected 3 invocations, found " + runs.size()

// 1: the budget cut the rounds; the baseline still ran (both tries)
assert runs[0].contains('time budget') : "invocation 1 does not mention the time budget"
assert runs[0].contains('BUILD SUCCESS') : "invocation 1 failed"

// 2: resumed: the rounds ran, nothing was repeated
assert runs[1].contains('resuming: 2 experiments already done') : "invocation 2 did not resume after the 2 baseline tries"
def r = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
assert r.failing*.test == ['com.example.budget.AlwaysFailsTest#fails'] : "failing: " + r.failing
assert r.flaky.isEmpty() : "a test failing in every order is not order-dependent: " + r.flaky
assert r.rounds_planned == 4 && r.rounds_run == 4 : "rounds " + r.rounds_run + "/" + r.rounds_planned
assert r.experiments == 6 : "2 baseline tries + 4 rounds, got " + r.experiments
def lines = new File(basedir, 'target/odrust/detect/experiments.jsonl').readLines().findAll { it.trim() }
assert lines.size() == 6 : "experiments.jsonl has " + lines.size() + " lines"
def kinds = lines.collect { new JsonSlurper().parseText(it).kind }
assert kinds == ['baseline', 'baseline', 'round', 'round', 'round', 'round'] : "kinds " + kinds

// 3: a budget that is not a duration
assert runs[2].contains('odrust.timeBudget=soon is not a duration') : "invocation 3 message"
return true
