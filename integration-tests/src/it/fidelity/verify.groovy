import groovy.json.JsonSlurper

def log = new File(basedir, 'build.log').getText('UTF-8')
def parts = log.split(/(?m)^.*Scanning for projects\.\.\..*$/).toList().drop(1)
assert parts.size() == 2 : "expected 2 invocations in build.log, found " + parts.size()

// 1: the difference fails the build and names the test
assert parts[0].contains('BUILD FAILURE') : "fidelity must fail the build when outcomes differ"
assert parts[0].contains('com.example.fid.SurefireOnlyTest#underSurefire') : "the failure must name the differing test:\n" + parts[0].readLines().findAll { it.contains('[ERROR]') }.join('\n')

// 2: same outcomes
assert parts[1].contains('BUILD SUCCESS') : "fidelity of the unchanged module failed:\n" + parts[1].readLines().findAll { it.contains('[ERROR]') }.join('\n')
File f = new File(basedir, 'target/odrust/fidelity.json')
assert f.isFile() : "missing " + f
def fid = new JsonSlurper().parse(f)
assert fid.same == true : "fidelity.json: " + fid
assert fid.differences == [] : "differences: " + fid.differences
// every Surefire result has its own odrust result: the overloaded find() and find(Character, boolean)[1..2] too
assert fid.only_expected == [] && fid.only_actual == [] : "fidelity.json: " + fid
assert fid.surefire_tests == fid.odrust_tests : "fidelity.json: " + fid
assert parts[1].contains("every one of the ${fid.surefire_tests} Surefire results matched") : "the console must give the count"
return true
