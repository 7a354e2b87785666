import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def MEMORY = 'com.example.isooom.MemoryTest#needsThenKeepsMemory'
// A shared JVM ran out of memory during the test (its second order there) and said so.
assert log.contains('odrust: a shared test JVM ran out of memory (java.lang.OutOfMemoryError: Java heap space) during '
        + MEMORY + '; the order runs again in a fresh JVM') : "no out-of-memory rerun said"
// The check compared what fresh JVMs gave: no test set aside as NOD, the mode kept.
def check = new JsonSlurper().parse(new File(basedir, 'target/odrust/detect/isolation-check.json'))
assert check.used == true
assert check.nod == [] : "set aside as NOD: " + check.nod
assert check.checked.every { it.same } : "check: " + check.checked
// Its second order ran again in a fresh JVM: compared nothing, and the console says so.
assert check.checked.find { it.order == 'the original order again' }.in_shared_jvm == false
assert check.checked.find { it.order == 'the original order' }.in_shared_jvm == true
assert log.contains('(but the original order again, round 2, which ran in a fresh JVM after the shared one ran out of memory or had ended: not compared)') : "the check does not say what it did not compare"
def records = new File(basedir, 'target/odrust/detect/experiments.jsonl').readLines().findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }
// Every test passed in every run: no crash from the shared JVM's memory was kept.
records.each { r ->
    r.results.each { t -> assert t.outcome == 'pass' : "exp ${r.id} (${r.kind}, ${r.isolation ?: 'fresh'}): ${t.test} ${t.outcome}" }
}
def rounds = records.findAll { it.kind == 'round' }
assert rounds.size() == 4
// Rounds 3 and 4 came after the check: one ran in a shared JVM, the other out of memory there and
// again in a fresh JVM (a shareable round recorded as fresh).
assert rounds.count { it.isolation == 'classloader' } >= 1 : "no round ran in a shared JVM"
assert rounds.drop(2).any { it.shareable && it.isolation == null } : "no round ran again fresh"
assert !records.any { it.kind.startsWith('confirm') } : "a confirmation ran: something looked flaky"
def report = new JsonSlurper().parse(new File(basedir, 'target/odrust/report.json'))
assert report.flaky == [] : "reported: " + report.flaky
return true
