import groovy.json.JsonSlurper

def COIN = 'com.example.nod.CoinTest#flipsHeads'
File out = new File(basedir, 'target/odrust')
File reportFile = new File(out, 'report.json')
assert reportFile.isFile() : "missing " + reportFile
def report = new JsonSlurper().parse(reportFile)
def log = new File(basedir, 'build.log').getText('UTF-8')

assert report.schema_version == 2 : "schema_version: " + report.schema_version
assert report.module == 'com.example:detect-nod' : "module: " + report.module
assert report.tests_total == 5 : "tests_total: " + report.tests_total
// no seed given: a random one, printed as seed=N and recorded in the report
assert report.seed instanceof Number : "seed: " + report.seed
assert log.contains('seed=' + report.seed) : "the random seed " + report.seed + " is not printed as seed=N"
assert report.failing == [] : "the coin must not be `failing` (it failed in every baseline try?): " + report.failing
assert report.flaky*.test == [COIN] : "flaky: only the coin test, got " + report.flaky*.test
def coin = report.flaky[0]
assert coin.kind == 'nod' : "the coin test is " + coin.kind + ", expected nod; evidence: " + coin.evidence
assert coin.evidence instanceof String && coin.evidence : "no evidence for the coin test"
assert coin.message?.contains('tails') : "message: " + coin.message

def exps = new File(out, 'detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert exps.size() == report.experiments : "experiments.jsonl has " + exps.size() + " lines, report says " + report.experiments
// the baseline: at most 12 tries, stopping at the first where everything passed
def baseline = exps.findAll { it.kind == 'baseline' }
assert baseline.size() >= 1 && baseline.size() <= 12 : "baseline tries: " + baseline.size()
assert baseline.last().results.every { it.outcome == 'pass' } : "the baseline stopped before a passing try"
assert baseline.dropRight(1).every { b -> b.results.any { it.outcome != 'pass' } } : "the baseline went on after a passing try"
// the plain tests pass in every experiment
assert exps.every { x -> x.results.every { it.test == COIN || it.outcome == 'pass' } } : "a plain test failed"
assert log.contains('BUILD SUCCESS') : "detect must succeed"
// the run held the module's tests lock (beside any output directory) and emptied it at its end
File testsLock = new File(basedir, 'target/odrust-tests.lock')
assert testsLock.isFile() : "detect did not take " + testsLock
assert testsLock.getText('UTF-8') == '' : "the tests lock still names a run: " + testsLock.getText('UTF-8')
return true
