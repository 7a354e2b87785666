import groovy.json.JsonSlurper

def VICTIM = 'com.example.fof.CheckTest#startsEmpty'
def log = new File(basedir, 'build.log').getText('UTF-8')
// All invocations append to one build.log; each starts with "Scanning for projects...".
def parts = log.split(/(?m)^.*Scanning for projects\.\.\..*$/).toList().drop(1)
assert parts.size() == 3 : "expected 3 invocations in build.log, found " + parts.size()

// 1: failure, and the failure message names the victim
assert parts[0].contains('BUILD FAILURE') : "failOnFlaky=true with an unknown victim must fail the build"
// the failure (after BUILD FAILURE: Maven prints a multi-line message with [ERROR] on its first line only)
String failure = parts[0].substring(parts[0].indexOf('BUILD FAILURE'))
assert failure.contains(VICTIM) : "the failure does not name the victim:\n" + failure
// ...found by the analysis, not a complaint about a setting
assert failure.contains('failOnFlaky') : "the failure does not say it comes from failOnFlaky:\n" + failure

// 2: the victim is known: success, and it is still reported
assert parts[1].contains('BUILD SUCCESS') : "a known victim must not fail the build:\n" + parts[1].readLines().findAll { it.contains('[ERROR]') }.join('\n')
// 3: failOnFlaky off: success
assert parts[2].contains('BUILD SUCCESS') : "failOnFlaky=false must not fail the build"

File reportFile = new File(basedir, 'target/odrust/report.json')
assert reportFile.isFile() : "missing " + reportFile
def report = new JsonSlurper().parse(reportFile)
assert report.flaky.collect { [it.test, it.kind] } == [[VICTIM, 'victim']] : "flaky: " + report.flaky.collect { [it.test, it.kind] }
return true
