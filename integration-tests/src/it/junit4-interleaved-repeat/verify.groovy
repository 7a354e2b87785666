import groovy.json.JsonSlurper

def load = { String name ->
    File f = new File(basedir, "target/odrust/run-order/" + name + "/result.json")
    assert f.isFile() : "missing " + f
    new JsonSlurper().parse(f)
}
def A1 = 'com.example.ir.ATest#a1', A2 = 'com.example.ir.ATest#a2', B1 = 'com.example.ir.BTest#b1'

def inter = load('interleaved')
assert inter.honoured == true : "interleaved not honoured: " + inter.first_difference
assert inter.results*.test == [A1, B1, A2] : "interleaved ran " + inter.results*.test
assert inter.results.every { it.outcome == 'pass' } : "interleaved: " + inter.results
assert inter.results.every { it.jvm == 1 } : "interleaved must use one JVM: " + inter.results
assert inter.segments.size() == 3 : "interleaved segments: " + inter.segments
assert inter.segments.collect { it['class'] } == ['com.example.ir.ATest', 'com.example.ir.BTest', 'com.example.ir.ATest'] : "segments: " + inter.segments
assert inter.segments*.tests == [[A1], [B1], [A2]] : "segment tests: " + inter.segments*.tests
assert inter.results*.segment == [0, 1, 2] : "result segments: " + inter.results*.segment

def rep = load('repeat')
assert rep.requested == [A1, A1] : "repeat requested: " + rep.requested
assert rep.honoured == true : "repeat not honoured: " + rep.first_difference
assert rep.results*.test == [A1, A1] : "repeat ran " + rep.results*.test
assert rep.results.every { it.outcome == 'pass' } : "repeat: " + rep.results
assert rep.segments.size() == 2 : "repeat segments: " + rep.segments
assert rep.results*.segment == [0, 1] : "result segments: " + rep.results*.segment

// what the tests themselves saw: "<pid> <event>", both invocations appended to one file
def lines = new File(basedir, 'target/log.txt').readLines('UTF-8').findAll { it.trim() }
def seen = lines.collect { it.split(' ', 2)[1] }
assert seen == ['ATest@BeforeClass', 'ATest#a1', 'BTest@BeforeClass', 'BTest#b1', 'ATest@BeforeClass', 'ATest#a2',
                'ATest@BeforeClass', 'ATest#a1', 'ATest@BeforeClass', 'ATest#a1'] : "log.txt: " + seen
def pids = lines.collect { it.split(' ', 2)[0] }
assert pids[0..5].unique().size() == 1 : "interleaved order must run in one JVM: " + lines
assert pids[6..9].unique().size() == 1 : "repeated order must run in one JVM: " + lines
return true
