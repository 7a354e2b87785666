import groovy.json.JsonSlurper

def P = 'com.example.dep.'
def slurp = { String dir -> new JsonSlurper().parse(new File(basedir, dir + '/report.json')) }
def experiments = { String dir ->
    new File(basedir, dir + '/detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }
            .collect { new JsonSlurper().parseText(it) }
}
def executions = { exps -> exps.findAll { it.kind == 'round' }.sum(0) { it.order.size() } }
def kindsOf = { report -> report.flaky.collectEntries { [(it.test): it.kind] } }
def victims = [(P + 'AlphaVictimTest#checksOne'): 'victim', (P + 'BetaVictimTest#checksTwo'): 'victim',
               (P + 'EpsilonRegistryVictimTest#expectsAnEmptyRegistry'): 'victim',
               (P + 'ThetaBrittleTest#needsReady'): 'brittle']

def tuscan = slurp('target/odrust-tuscan')
def aware = slurp('target/odrust')
assert tuscan.strategy == 'tuscan' && aware.strategy == 'dependence-aware'
// both find exactly the three single-polluter victims and the brittle (dependence-aware through a
// clean run: the brittle never runs without its setter in the covering orders)
assert kindsOf(tuscan) == victims : "tuscan found " + kindsOf(tuscan)
assert kindsOf(aware) == victims : "dependence-aware found " + kindsOf(aware)

// the baseline recorded real accesses: the flag write, the map's mutable read, the counter
def exps = experiments('target/odrust')
def baseline = exps.find { it.kind == 'baseline' }
def result = { String t -> baseline.results.find { it.test == P + t } }
assert result('OmegaPolluterTest#setsOne').writes.contains(P + 'Flags#one') : "writes " + result('OmegaPolluterTest#setsOne')
assert result('AlphaVictimTest#checksOne').reads.contains(P + 'Flags#one')
// the map behind a static final field: a write only where the test changed it
assert result('ZetaRegistryPolluterTest#registers').writes.contains(P + 'Registry#ENTRIES')
assert result('EpsilonRegistryVictimTest#expectsAnEmptyRegistry').reads.contains(P + 'Registry#ENTRIES')
assert !result('EpsilonRegistryVictimTest#expectsAnEmptyRegistry').writes.contains(P + 'Registry#ENTRIES')
assert result('GammaTest#adds').writes.contains(P + 'Counters#calls')
// constants (final Integer / String) are no dependence
assert !result('DeltaTest#readsAConstant').reads.any { it.contains('Limits') } : "reads " + result('DeltaTest#readsAConstant')

// the whole schedule ran, every claimed pair covered; only the pairs that can interact are claimed:
// Omega -> Alpha, Psi -> Beta, Zeta -> Epsilon, AaSetter -> Theta
assert aware.pairs.covered == aware.pairs.total && aware.pairs.total == 4 : "pairs " + aware.pairs
assert aware.pairs.total < tuscan.pairs.total
def awareRuns = executions(exps)
def tuscanRuns = executions(experiments('target/odrust-tuscan'))
assert awareRuns < tuscanRuns : "dependence-aware ran " + awareRuns + " test executions, tuscan " + tuscanRuns
assert aware.plan.executions == awareRuns && aware.plan.tuscan.executions == tuscanRuns : "plan " + aware.plan

// the counts are printed before the rounds and in the summary
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('plan: dependence-aware: ' + aware.plan.orders + ' orders, ' + awareRuns + ' test executions')
assert log.contains('tuscan would run ' + aware.plan.tuscan.orders + ' orders, ' + tuscanRuns + ' test executions')
return true
