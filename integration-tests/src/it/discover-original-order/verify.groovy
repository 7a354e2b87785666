import groovy.json.JsonSlurper

File original = new File(basedir, 'target/odrust/orders/original.txt')
assert original.isFile() : "missing " + original
def ids = original.readLines('UTF-8').collect { it.trim() }.findAll { it && !it.startsWith('#') }
def P = 'com.example.order.'

// classes in Surefire's alphabetical runOrder
def classes = ids.collect { it.substring(0, it.indexOf('#')) }.unique()
assert classes == [P + 'AppleTest', P + 'BananaParamTest', P + 'MangoTest', P + 'ZebraTest'] : "class order: " + classes
// each class's tests together, exactly once
assert ids.size() == 3 + 2 + 5 + 3 && ids.unique(false).size() == ids.size() : "original.txt: " + ids
def of = { String c -> ids.findAll { it.startsWith(P + c + '#') } }
assert of('AppleTest') == ['a_first', 'b_second', 'c_third'].collect { P + 'AppleTest#' + it } : "NAME_ASCENDING: " + of('AppleTest')
assert of('BananaParamTest') == [P + 'BananaParamTest#check[0]', P + 'BananaParamTest#check[1]'] : "Parameterized: " + of('BananaParamTest')
assert of('MangoTest') as Set == ['delta', 'alpha', 'charlie', 'bravo', 'echo'].collect { P + 'MangoTest#' + it } as Set : "MangoTest: " + of('MangoTest')
assert of('ZebraTest') as Set == ['zulu', 'yankee', 'xray'].collect { P + 'ZebraTest#' + it } as Set : "ZebraTest: " + of('ZebraTest')

// and exactly the order mvn test ran, method by method (JUnit 4's default order included)
def log = new File(basedir, 'target/run-log.txt').readLines('UTF-8').findAll { it.trim() }
def ran = log.take(ids.size())
assert ids == ran : "original.txt differs from the order mvn test ran:\n  original: " + ids + "\n  ran:      " + ran

// invocation 2: an order through odrust with Surefire 2.22.2's configuration
def mixed = ['ZebraTest#xray', 'AppleTest#c_third', 'BananaParamTest#check[1]', 'MangoTest#alpha', 'AppleTest#a_first'].collect { P + it }
def r = new JsonSlurper().parse(new File(basedir, 'target/odrust/run-order/mixed-up/result.json'))
assert r.honoured == true : "mixed-up not honoured: " + r.first_difference
assert r.results*.test == mixed : "mixed-up ran " + r.results*.test
assert r.results.every { it.outcome == 'pass' } : "mixed-up: " + r.results
assert log.drop(ids.size()) == mixed : "the tests saw: " + log.drop(ids.size())

def suite = new JsonSlurper().parse(new File(basedir, 'target/odrust/suite.json'))
def apple = suite.classes.find { it['class'] == P + 'AppleTest' }
assert apple != null && apple.reorderable == false : "@FixMethodOrder class must not be reorderable: " + apple
def mango = suite.classes.find { it['class'] == P + 'MangoTest' }
assert mango != null && mango.reorderable == true : "MangoTest must be reorderable: " + mango
return true
