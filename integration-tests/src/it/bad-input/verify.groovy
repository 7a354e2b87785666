import groovy.json.JsonSlurper

// All invocations append to one build.log; each starts with "Scanning for projects...".
def log = new File(basedir, 'build.log').getText('UTF-8')
def parts = log.split(/(?m)^.*Scanning for projects\.\.\..*$/).toList().drop(1)
assert parts.size() == 16 : "expected 16 invocations in build.log, found " + parts.size()

def problems = []
def expectFailure = { int n, List<String> phrases ->
    String part = parts[n - 1]
    def errors = part.readLines().findAll { it.startsWith('[ERROR] Failed to execute goal') }.join('\n')
    if (!part.contains('BUILD FAILURE')) {
        problems << "invocation " + n + " should have failed"
    }
    phrases.each { phrase ->
        if (!part.contains(phrase)) {
            problems << "invocation " + n + ": build.log lacks '" + phrase + "':\n    " + errors
        }
    }
}
expectFailure(1, ['unknown test id', 'com.example.bad.GoodTest#nope'])
expectFailure(2, ['malformed order', 'line 3'])
expectFailure(3, ['odrust.order'])
expectFailure(4, ['odrust engine'])
expectFailure(5, ['orders/missing.txt'])
expectFailure(6, ['malformed order', 'line 3'])
expectFailure(8, ['odrust engine'])
expectFailure(9, ['no detection results', 'report.json does not exist', 'mvn odrust:detect'])
expectFailure(10, ['-Dodrust.test=com.example.bad.GoodTest#nope is not an order-dependent test'])
expectFailure(11, ['odrust.repair.budget must be at least 1'])
expectFailure(12, ['odrust.id.filter=all is not a filter', 'project', 'any'])
expectFailure(13, ["odrust.id.only: '7-3' is not a call number or range", '-Dodrust.id.only=5'])
expectFailure(14, ['odrust.id.only needs -Dodrust.id.seed'])
expectFailure(15, ['-Dodrust.stratgy=tuscan is not a setting of any odrust goal; did you mean -Dodrust.strategy?'])
expectFailure(16, ['another odrust run is writing to', 'locked-out', 'odrust:detect, PID 4242', '-Dodrust.outputDirectory='])
assert problems.isEmpty() : problems.join('\n')

assert parts[6].contains('BUILD SUCCESS') : "the good order must still run"
def r = new JsonSlurper().parse(new File(basedir, 'target/odrust/run-order/good/result.json'))
assert r.results*.test == ['com.example.bad.GoodTest#two', 'com.example.bad.GoodTest#one'] : "good ran " + r.results*.test
assert r.results.every { it.outcome == 'pass' } : "good: " + r.results

// failed invocations leave no result behind
['unknown', 'malformed', 'missing', 'no-method'].each { n ->
    assert !new File(basedir, 'target/odrust/run-order/' + n + '/result.json').exists() : "a result.json was written for the bad order " + n
}
return true
