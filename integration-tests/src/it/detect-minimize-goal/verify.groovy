import groovy.json.JsonSlurper

def P = 'com.example.minimize.'
def GROUP_VICTIM = P + 'GroupVictimTest#needsOneOfThemUnset'
def SINGLE_VICTIM = P + 'SingleVictimTest#untainted'

def log = new File(basedir, 'build.log').getText('UTF-8')
def runs = log.split('Scanning for projects...').findAll { it.contains('BUILD ') }
assert runs.size() == 4 : "expected 4 invocations, found " + runs.size()
assert runs[0..2].every { it.contains('BUILD SUCCESS') } : "invocations 1-3 must succeed"

// 1 then 2: minimize continued the recorded run, it did not start a new one
assert runs[1].contains('resuming: ') : "odrust:minimize did not continue the detect run"
assert runs[1].contains('polluters: ' + P + 'TaintTest#taints') : "invocation 2 does not show the single polluter"

// the final report (after invocation 3) explains both victims
def report = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
def byTest = report.flaky.collectEntries { [(it.test): it] }
assert byTest.keySet() == [GROUP_VICTIM, SINGLE_VICTIM] as Set : "flaky: " + byTest.keySet()
assert byTest.values().every { it.kind == 'victim' } : "kinds: " + byTest.values()*.kind
assert byTest[SINGLE_VICTIM].polluters == [[P + 'TaintTest#taints']] : "single: " + byTest[SINGLE_VICTIM].polluters
// no single test pollutes the group victim: the two polluters are reported as one group
def group = byTest[GROUP_VICTIM].polluters
assert group.size() == 1 && group[0] as Set == [P + 'PolluteOneTest#setsFirst', P + 'PolluteTwoTest#setsSecond'] as Set : "group: " + group
assert byTest.values().every { it.minimize_experiments > 0 } : "experiments: " + byTest.values()*.minimize_experiments

// 4: refused, naming the problem
assert runs[3].contains('odrust.test=' + P + 'TaintTest#taints is not an order-dependent test') : "invocation 4 message"
return true
