import groovy.json.JsonSlurper

def L = 'com.example.mixed.LegacyTest', M = 'com.example.mixed.ModernTest'

// Surefire itself ran both (otherwise the fixture proves nothing)
[L, M].each { c ->
    File xml = new File(basedir, "target/surefire-reports/TEST-" + c + ".xml")
    assert xml.isFile() : "Surefire did not run " + c
    def suite = new groovy.xml.XmlSlurper().parse(xml)
    assert suite.@tests.toString() == '2' && suite.@failures.toString() == '0' && suite.@errors.toString() == '0' : "surefire " + c + ": tests=" + suite.@tests
}

// discover
File suiteFile = new File(basedir, 'target/odrust/suite.json')
assert suiteFile.isFile() : "missing " + suiteFile
def suite = new JsonSlurper().parse(suiteFile)
assert suite.schema_version == 1 : "suite schema_version: " + suite.schema_version
assert suite.module == 'com.example:mixed-junit4-junit5' : "suite module: " + suite.module
def byClass = suite.classes.collectEntries { [(it['class']): it] }
assert byClass.keySet() == [L, M] as Set : "suite classes: " + byClass.keySet()
assert byClass[L].framework == 'junit4' : "LegacyTest framework: " + byClass[L].framework
assert byClass[M].framework == 'junit5' : "ModernTest framework: " + byClass[M].framework
assert byClass[L].tests as Set == [L + '#a1', L + '#a2'] as Set : "LegacyTest tests: " + byClass[L].tests
assert byClass[M].tests as Set == [M + '#m1', M + '#m2'] as Set : "ModernTest tests: " + byClass[M].tests
File original = new File(basedir, 'target/odrust/orders/original.txt')
assert original.isFile() : "missing " + original
def ids = original.readLines('UTF-8').collect { it.trim() }.findAll { it && !it.startsWith('#') }
assert ids as Set == [L + '#a1', L + '#a2', M + '#m1', M + '#m2'] as Set : "original.txt: " + ids
assert ids.size() == 4 : "original.txt: " + ids
assert ids == suite.classes.collectMany { it.tests } : "original.txt must concatenate the suite's classes: " + ids

// run-order
File resultFile = new File(basedir, 'target/odrust/run-order/mixed/result.json')
assert resultFile.isFile() : "missing " + resultFile
def r = new JsonSlurper().parse(resultFile)
def wanted = [L + '#a2', M + '#m1', L + '#a1', M + '#m2']
assert r.honoured == true : "mixed not honoured: " + r.first_difference
assert r.results*.test == wanted : "mixed ran " + r.results*.test
assert r.results.every { it.outcome == 'pass' && it.jvm == 1 } : "mixed: " + r.results
assert r.segments*.framework == ['junit4', 'junit5', 'junit4', 'junit5'] : "segments: " + r.segments
return true
