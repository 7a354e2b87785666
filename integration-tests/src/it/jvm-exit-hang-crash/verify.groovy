import groovy.json.JsonSlurper

// First make sure the hang test's child does not outlive us, whatever else happens.
File pidFile = new File(basedir, 'target/hang-child.pid')
String stray = null
if (pidFile.isFile()) {
    String pid = pidFile.getText('UTF-8').trim()
    File cmdline = new File('/proc/' + pid + '/cmdline')
    if (cmdline.exists()) {
        String cmd = cmdline.getText('UTF-8').replace('\u0000', ' ').trim()
        if (cmd == 'sleep 1000') {
            stray = pid
            ['kill', '-9', pid].execute().waitFor()
        }
    }
}

File resultFile = new File(basedir, 'target/odrust/run-order/boom/result.json')
assert resultFile.isFile() : "missing " + resultFile
def r = new JsonSlurper().parse(resultFile)
def p = 'com.example.boom.'
def expected = [
    [p + 'ATest#ok', 'pass', 1],
    [p + 'ExitTest#exits', 'exit', 1],
    [p + 'BTest#ok', 'pass', 2],
    [p + 'HangTest#hangs', 'timeout', 2],
    [p + 'CTest#ok', 'pass', 3],
    [p + 'CrashTest#crashes', 'crash', 3],
    [p + 'DTest#ok', 'pass', 4],
]
def actual = r.results.collect { [it.test, it.outcome, it.jvm] }
assert actual == expected : "results (test, outcome, jvm):\n  " + actual.join('\n  ')
assert r.honoured == true : "not honoured: " + r.first_difference
def jvms = r.jvms.collect { [it.index, it.status] }
assert jvms == [[1, 'exit'], [2, 'timeout'], [3, 'crash'], [4, 'ok']] : "jvms: " + r.jvms
assert r.jvms[0].exit_code == 3 : "System.exit(3) exit code: " + r.jvms[0]
assert r.jvms[3].exit_code == 0 : "last JVM exit code: " + r.jvms[3]
assert r.summary.pass == 4 && r.summary.exit == 1 && r.summary.timeout == 1 && r.summary.crash == 1 : "summary: " + r.summary
assert r.summary.fail == 0 && r.summary.error == 0 && r.summary['not-run'] == 0 : "summary: " + r.summary
(1..4).each { n ->
    File dir = resultFile.parentFile
    ['plan-' + n + '.txt', 'events-' + n + '.jsonl', 'jvm-' + n + '.log'].each { f ->
        assert new File(dir, f).isFile() : "missing " + f
    }
}
assert !new File(resultFile.parentFile, 'plan-5.txt').exists() : "a fifth JVM was started"

assert stray == null : "the timed-out JVM's child process 'sleep 1000' (pid " + stray + ") was still alive: the process tree was not killed"
def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('BUILD SUCCESS') : "a crashing test must not fail the build"
return true
