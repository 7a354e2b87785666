import groovy.json.JsonSlurper

def P = 'com.example.direct.'
def A_VICTIM = P + 'Alpha1VictimTest#runsInDefaultMode'
def A_POLLUTER = P + 'Alpha2PolluterTest#switchesToFast'
def B_VICTIM = P + 'Bravo1VictimTest#seesOnlyTheBuiltin'
def B_POLLUTER = P + 'Bravo2PolluterTest#registersAPlugin'
def C_VICTIM = P + 'Charlie1VictimTest#startsEmpty'
def C_POLLUTER = P + 'Charlie2PolluterTest#stocks'

File base = new File("$basedir")
File out = new File(base, 'target/odrust')
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 2 : "expected 2 successful builds, found " + log.count('BUILD SUCCESS')

// ---- goal 1: three victims, each with its polluter
def report = new JsonSlurper().parse(new File(out, 'report.json'))
def flaky = report.flaky.collectEntries { [(it.test): it] }
assert flaky.keySet() == [A_VICTIM, B_VICTIM, C_VICTIM] as Set : "flaky: " + flaky.keySet()
assert flaky[A_VICTIM].polluters == [[A_POLLUTER]]
assert flaky[B_VICTIM].polluters == [[B_POLLUTER]]
assert flaky[C_VICTIM].polluters == [[C_POLLUTER]]

// ---- goal 2: repair, with no cleaner and no reset method anywhere
def repair = new JsonSlurper().parse(new File(out, 'repair/repair.json'))
def fixes = repair.repairs.collectEntries { [(it.test): it] }
fixes.values().each { f ->
    assert f.status == 'patched' : f.test + ": " + f.status + ": " + f.reason + "; tried: " + f.tried
    assert f.source.kind == 'reset-method' : f.test + " source: " + f.source
    assert f.verification*.check.containsAll(['failing-order', 'alone', 'original-order']) : f.test + " checks: " + f.verification*.check
    assert f.verification.every { it.passed }
}

// A: the passing value of a String, set back in the polluter's teardown
def ra = fixes[A_VICTIM]
assert ra.polluted_state.status == 'confirmed'
assert ra.polluted_state.fields.find { it.field == P + 'Settings.mode' }.confirmed == true
assert ra.reset_candidates == ['com.example.direct.Settings.mode = "default";'] : "A candidates: " + ra.reset_candidates
assert ra.statements == ['com.example.direct.Settings.mode = "default";'] : "A statements: " + ra.statements
assert ra.placement.kind == 'polluter-teardown' : "A placement: " + ra.placement
assert ra.file == 'src/test/java/com/example/direct/Alpha2PolluterTest.java' : "A file: " + ra.file
def patchA = new File(base, ra.patch).getText('UTF-8')
assert patchA.contains('+    @After') : patchA
assert patchA.contains('+        com.example.direct.Settings.mode = "default";') : patchA
assert patchA.contains("+    // com.example.direct.Alpha1VictimTest#runsInDefaultMode (to the value it has when the test passes; see odrust:diagnose)") : patchA

// B: a final list refilled with its passing value; clear() alone (also offered) comes after
def rb = fixes[B_VICTIM]
assert rb.reset_candidates[0] == 'com.example.direct.Registry.NAMES.clear(); com.example.direct.Registry.NAMES.add("builtin");' : "B candidates: " + rb.reset_candidates
assert rb.reset_candidates.contains('com.example.direct.Registry.NAMES.clear();') : "B candidates: " + rb.reset_candidates
assert rb.statements == ['com.example.direct.Registry.NAMES.clear();', 'com.example.direct.Registry.NAMES.add("builtin");'] : "B statements: " + rb.statements
assert rb.placement.kind == 'polluter-teardown' : "B placement: " + rb.placement
assert rb.file == 'src/test/java/com/example/direct/Bravo2PolluterTest.java' : "B file: " + rb.file

// C: a nested class's private map, cleared through the outer class's accessor
def rc = fixes[C_VICTIM]
assert rc.reset_candidates[0] == 'com.example.direct.Catalog.items().clear();' : "C candidates: " + rc.reset_candidates
assert rc.statements == ['com.example.direct.Catalog.items().clear();'] : "C statements: " + rc.statements
assert rc.placement.kind == 'setup' : "C placement: " + rc.placement
assert rc.file == 'src/test/java/com/example/direct/Charlie1VictimTest.java' : "C file: " + rc.file

// nothing was applied
['Alpha2PolluterTest', 'Bravo2PolluterTest', 'Charlie1VictimTest'].each {
    assert !new File(base, "src/test/java/com/example/direct/${it}.java").getText('UTF-8').contains('odrust')
}
return true
