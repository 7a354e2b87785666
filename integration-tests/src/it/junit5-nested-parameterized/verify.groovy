import groovy.json.JsonSlurper

def load = { String name ->
    File f = new File(basedir, "target/odrust/run-order/" + name + "/result.json")
    assert f.isFile() : "missing " + f
    new JsonSlurper().parse(f)
}
def C = 'com.example.j5.CalcTest', O = 'com.example.j5.OtherTest', N = 'com.example.j5.CalcTest$WhenEmpty'
def ORD = 'com.example.j5.OrderedTest'

// ---- 1: interleaved
def inter = load('interleaved')
def wanted = [C + '#adds', O + '#x', C + '#p[3]', N + '#isEmpty', O + '#y', C + '#p[1]']
assert inter.requested == wanted : "interleaved requested: " + inter.requested
assert inter.honoured == true : "interleaved not honoured: " + inter.first_difference
assert inter.results*.test == wanted : "interleaved ran " + inter.results*.test
assert inter.results.every { it.outcome == 'pass' } : "interleaved: " + inter.results
assert inter.results.every { it.jvm == 1 } : "interleaved must use one JVM: " + inter.results
assert inter.segments.every { it.framework == 'junit5' } : "segments: " + inter.segments

// ---- 2: the single invocation p[2]
def p2 = load('p2')
assert p2.honoured == true : "p2 not honoured: " + p2.first_difference
assert p2.results*.test == [C + '#p[2]'] : "p2 ran " + p2.results*.test
assert p2.results[0].outcome == 'pass' : "p2: " + p2.results

// ---- 3: @TestMethodOrder class against its fixed order: honoured through split segments
def ord = load('ordered')
def ordWanted = [ORD + '#third', ORD + '#first', ORD + '#second']
assert ord.honoured == true : "ordered not honoured: " + ord.first_difference
assert ord.results*.test == ordWanted : "ordered ran " + ord.results*.test
assert ord.results.every { it.outcome == 'pass' } : "ordered: " + ord.results
// OrderedTest cannot run third, first, second in one request: it runs as [third], [first, second],
// and the second segment says why it stands apart. Each segment must keep the class's fixed order.
def fixed = [ORD + '#first', ORD + '#second', ORD + '#third']
assert ord.segments*.tests == [[ORD + '#third'], [ORD + '#first', ORD + '#second']] : "ordered segments: " + ord.segments
assert ord.segments[1].split?.contains('not reorderable') : "the cut in a fixed-order class must say why: " + ord.segments
ord.segments.each { seg ->
    assert seg.tests == seg.tests.sort(false) { fixed.indexOf(it) } : "segment not in OrderedTest's fixed order: " + seg
}

// ---- 4: the dynamic container runs all of its invocations
def cont = load('container')
assert cont.honoured == true : "container not honoured: " + cont.first_difference
assert cont.results*.test == [O + '#y', C + '#p[1]', C + '#p[2]', C + '#p[3]'] : "container ran " + cont.results*.test
assert cont.results.every { it.outcome == 'pass' } : "container: " + cont.results

// what the tests themselves saw, all four invocations appended
def seen = new File(basedir, 'target/log.txt').readLines('UTF-8').findAll { it.trim() }
// Whether the @Nested test shares the segment of the CalcTest test before it is the engine's
// choice; if it is a segment of its own Jupiter runs the outer @BeforeAll again. Accept both.
int nested = seen.indexOf('CalcTest$WhenEmpty#isEmpty')
if (nested > 0 && seen[nested - 1] == 'CalcTest@BeforeAll') {
    seen = seen.take(nested - 1) + seen.drop(nested)
}
def expected = [
    // 1: a segment per class change, @BeforeAll once per CalcTest segment
    'CalcTest@BeforeAll', 'CalcTest#adds', 'OtherTest#x', 'CalcTest@BeforeAll', 'CalcTest#p(30)',
    'CalcTest$WhenEmpty#isEmpty', 'OtherTest#y', 'CalcTest@BeforeAll', 'CalcTest#p(10)',
    // 2
    'CalcTest@BeforeAll', 'CalcTest#p(20)',
    // 3
    'OrderedTest#third', 'OrderedTest#first', 'OrderedTest#second',
    // 4
    'OtherTest#y', 'CalcTest@BeforeAll', 'CalcTest#p(10)', 'CalcTest#p(20)', 'CalcTest#p(30)',
]
assert seen == expected : "log.txt:\n  " + seen.join('\n  ')
return true
