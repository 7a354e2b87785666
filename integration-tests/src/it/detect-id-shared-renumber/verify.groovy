import groovy.json.JsonSlurper

def slurp = { File f -> new JsonSlurper().parse(f) }
def records = { File dir -> new File(dir, 'experiments.jsonl').readLines('UTF-8').findAll { it.trim() }.collect { new JsonSlurper().parseText(it) } }
def test = 'com.example.LabelsTest#joinsInOrder'

// 1: shared JVMs (the default)
def sharedDir = new File(basedir, 'target/odrust/id.previous-1')
assert sharedDir.isDirectory() : "goal 2 did not keep goal 1's run aside"
def shared = slurp(new File(sharedDir, 'report.json'))
assert shared.outcome.tests*.test == [test] : shared.outcome.tests*.test
def v = shared.outcome.tests[0]
assert v.status == 'id' && v.pin.call.api == 'HashMap$KeySet.iterator' : v
assert v.pin.call.at['class'] == 'com.example.Labels' && v.pin.call.at.method == 'joined' : v.pin.call
def exps = records(sharedDir)
// in the shared JVM the HashSet's iteration was the test's first counted call, once the cache was full
def sharedAlone = exps.findAll { it.test == test && it.shared && it.kind == 'alone' }
assert sharedAlone.any { it.count == 1 } : "no shared run alone counted the iteration alone: " + sharedAlone*.count
// the fresh JVM counted the introspection first: the pin is its number for that call
def confirms = exps.findAll { it.test == test && it.kind == 'confirm-pin' }
assert confirms && confirms.every { !it.shared } : confirms
assert confirms[0].only_call != null && confirms[0].only_call.nth == 1 : confirms[0]
assert confirms[0].count > 1 && confirms[0].calls.size() == 1 : confirms[0]
assert v.pin.invocation == confirms[0].calls[0].index && v.pin.invocation > 1 : "pinned " + v.pin + " against " + confirms[0].calls
assert v.reason.contains('found in a shared JVM') : v.reason
assert !v.reason.contains('searched again') : "the pin was searched again fresh: " + v.reason

// the reproduce command the log printed for it fails the test, naming the call
def log = new File(basedir, 'build.log').getText('UTF-8')
def printed = (log =~ /Reproduce: mvn (odrust:run-order -Dodrust\.order='com\.example\.LabelsTest#joinsInOrder' -Dodrust\.id\.seed=(\d+) -Dodrust\.id\.only=(\d+))/)
assert printed.find() : "no reproduce command in the log"
assert printed.group(3) as long == v.pin.invocation : printed.group(0)
def command = [new File(System.getProperty('maven.home'), 'bin/mvn').absolutePath, '-B', '-o',
               '-Dmaven.repo.local=' + localRepositoryPath, 'odrust:run-order',
               '-Dodrust.order=' + test, '-Dodrust.id.seed=' + printed.group(2),
               '-Dodrust.id.only=' + printed.group(3), '-Dodrust.name=id-repro']
def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
def out = process.inputStream.getText('UTF-8')
process.waitFor()
new File(basedir, 'repro.log').setText(out, 'UTF-8')
assert out =~ /FAIL\s+com\.example\.LabelsTest#joinsInOrder/ : "the reproduction did not fail the test:\n" + out
assert out.contains('call ' + v.pin.invocation + ': HashMap$KeySet.iterator at com.example.Labels.joined(') : "the reproduction shuffled another call:\n" + out

// 2: every run fresh: the same test, the same invocation and line
def fresh = slurp(new File(basedir, 'target/odrust/id/report.json'))
assert records(new File(basedir, 'target/odrust/id')).every { !it.shared }
assert fresh.outcome.tests*.test == [test] : fresh.outcome.tests*.test
def f = fresh.outcome.tests[0]
assert f.status == 'id' && f.pin.invocation == v.pin.invocation && f.pin.call.at.line == v.pin.call.at.line : "fresh " + f.pin + " against shared " + v.pin
true
