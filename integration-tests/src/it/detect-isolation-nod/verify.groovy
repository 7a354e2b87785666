import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def NOD = 'com.example.isonod.FirstSharedRunFailsTest#passesButOnce'
assert log.contains(NOD + ' had another outcome in a shared JVM (the original order); running that order 3 more times') : "no recheck said"
assert log.contains(NOD + ', whose outcome changed between runs of the same order, NOD: not compared)') : "the NOD test is not named"
assert !log.contains('isolation=classloader is not used for this module') : "a NOD test switched the mode off"
def check = new JsonSlurper().parse(new File(basedir, 'target/odrust/detect/isolation-check.json'))
assert check.used == true
assert check.nod == [NOD] : "nod: " + check.nod
assert check.checked[0].nod == [NOD] && check.checked[0].same == true : "first order: " + check.checked[0]
// the reruns are on disk, each an order of its own
assert new File(basedir, 'target/odrust/detect/isolation-check/order-1-again-3').isDirectory()
def records = new File(basedir, 'target/odrust/detect/experiments.jsonl').readLines().findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
assert records.count { it.kind == 'round' && it.isolation == 'classloader' } >= 1 : "no round ran in a shared JVM"
def report = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == ['com.example.isonod.Alpha1VictimTest#startsEmpty'] as Set : "reported: " + flaky.keySet()
assert flaky['com.example.isonod.Alpha1VictimTest#startsEmpty'].polluters == [['com.example.isonod.Alpha2PolluterTest#adds']]
// The run without explanations, resumed with them: they ran in shared JVMs.
def cut = new File(basedir, 'target/cut/detect/experiments.jsonl').readLines().findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
def explaining = cut.findAll { it.kind in ['polluter-search', 'polluter-pair', 'cleaner'] }
assert !explaining.isEmpty() : "no explanation after resuming"
assert explaining.any { it.isolation == 'classloader' } : "the resumed run explained in fresh JVMs only"
def resumed = new JsonSlurper().parse(new File(basedir, 'target/cut/report.json'))
assert resumed.flaky.collect { it.test } == report.flaky.collect { it.test }
assert resumed.flaky[0].polluters == report.flaky[0].polluters
return true
