import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('isolation=classloader is not used for this module: a test set URL.setURLStreamHandlerFactory, which lasts as long as the JVM (the original order), which a shared JVM cannot undo') : "the refusal does not say why"
assert log.contains('the rounds of this module run in fresh JVMs')
def check = new JsonSlurper().parse(new File(basedir, 'target/odrust/detect/isolation-check.json'))
assert check.used == false
assert check.checked.size() == 1 : "the check went on after a refusal: " + check.checked*.order
assert check.checked[0].same == true : "the first order in a new shared JVM is as in a fresh one"
assert check.checked[0].warnings.any { it.contains('URL.setURLStreamHandlerFactory') } : "the shared JVM did not say what it could not restore: " + check.checked[0]
def records = new File(basedir, 'target/odrust/detect/experiments.jsonl').readLines().collect { new JsonSlurper().parseText(it) }
assert records.count { it.kind == 'round' } == 6
assert records.every { it.isolation == null } : "a round ran in a shared JVM after the check refused"
def report = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
assert report.flaky.isEmpty() : "reported: " + report.flaky*.test
