import groovy.json.JsonSlurper

File out = new File(basedir, 'target/odrust')
String log = new File(basedir, 'build.log').getText('UTF-8')

// run 2 named the setting and the valid values, and did not start
assert log.contains('reverse-pasing') && log.contains('valid strategies') : "the typo was not named"

// run 3 is the current run; run 1 is kept beside it, whole
def current = new JsonSlurper().parse(new File(out, 'report.json'))
assert current.seed == 6 : "current report: seed " + current.seed
File previous = new File(out, 'previous')
def kept = new JsonSlurper().parse(new File(previous, 'report.json'))
assert kept.seed == 5 : "the previous report is run 1's: seed " + kept.seed
def keptRun = new JsonSlurper().parse(new File(previous, 'detect/run.json'))
assert keptRun.config.seed == 5 && keptRun.config.strategy == 'targeted' : "run 1's settings: " + keptRun.config
def keptExps = new File(previous, 'detect/experiments.jsonl').readLines('UTF-8').findAll { it.trim() }
assert keptExps.size() == kept.experiments : "run 1's history: " + keptExps.size() + " of " + kept.experiments
keptExps.collect { new JsonSlurper().parseText(it).id }.each { id ->
    assert new File(previous, 'orders/exp-' + id + '.txt').isFile() : "run 1's order file of experiment " + id
}
assert new File(previous, 'report.html').isFile()
assert new File(previous, 'surefire-reports/TEST-odrust.xml').isFile()
assert log.contains('kept in') : "the move was not said"
return true
