import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def slurp = { String p -> new JsonSlurper().parse(new File(basedir, p)) }

// 1: four ID tests, each pinned to its own line of ShelfTest or Index
def report = slurp('target/odrust/id/report.json')
def tests = report.outcome.tests.collectEntries { [(it.test): it] }
def shelfTests = ['com.example.ShelfTest#booksInOrder', 'com.example.ShelfTest#authorsInOrder']
def indexTests = ['com.example.IndexTest#namesInOrder', 'com.example.IndexTest#authorsInOrder']
assert tests.keySet() == (shelfTests + indexTests) as Set : tests.keySet()
assert shelfTests.every { tests[it].status == 'id' && tests[it].repairs[0].strategy == 'ChangeContainsExactly' } : tests.values()*.repairs
assert indexTests.every { tests[it].status == 'id' && tests[it].repairs[0].strategy == 'HashToLinkedHash' } : tests.values()*.repairs
assert tests[indexTests[0]].pin.call.at.line != tests[indexTests[1]].pin.call.at.line : "one line for both Index tests"

// 2: four patches, each passing alone, then the original order once with all of them
def repairFile = slurp('target/odrust/repair/id-repair.json')
def repairs = repairFile.repairs
assert repairs*.status == ['patched'] * 4 : repairs
assert repairs.every { it.original_order_with == 4 } : "not run in the original order together: " + repairs
// each patch checked with git apply --check against the file as it was made (the second after the
// first was applied: against the file before it), and the command that applies it named
assert repairs.every { it.applies.reason == null && it.applies.checker == 'git apply --check' } : repairs*.applies
assert repairs.every { it.apply.startsWith('git apply ') && it.apply.endsWith(it.patch.substring(it.patch.indexOf('target/odrust/'))) } : repairs*.apply
assert log.contains('odrust repair: the original order with 4 patches applied together')
assert log =~ /the original order with 4 patches together \([^)]*\): every test that passes without them passes/
// both applied: the second on top of the first, which changed other lines of the same file
assert repairs.every { it.applied == true && it.not_applied == null } : repairs
File shelf = new File(basedir, 'src/test/java/com/example/ShelfTest.java')
String text = shelf.getText('UTF-8')
assert text.count('.containsExactlyInAnyOrder(') == 2 && !text.contains('.containsExactly(') : text
assert text.count('\n') == text.count('\r\n') : "a line lost its CRLF"
// each patch, written against the file as it was, reverses from the file with both applied (git
// apply from where mvn ran; the ceiling keeps git from finding the odrust repository around it)
def gitEnv = System.getenv().collect { k, v -> k + '=' + v } + ['GIT_CEILING_DIRECTORIES=' + basedir.absoluteFile.parentFile.path]
def reverse = { String patch ->
    def p = ['git', 'apply', '-R', '--check', patch].execute(gitEnv, basedir)
    def so = new StringBuilder(); def se = new StringBuilder()
    p.waitForProcessOutput(so, se)
    return p.exitValue() + ': ' + so + se
}
def shelfRepairs = repairs.findAll { it.test in shelfTests }
shelfRepairs.each { r -> assert reverse(r.patch).startsWith('0:') : "a patch does not reverse from the applied file: " + reverse(r.patch) }

// Index: each patch alone keeps HashMap's import (the other map uses it); together they leave it
// unused, and all.patch, every patch as one, removes it; so does the apply
def indexRepairs = repairs.findAll { it.test in indexTests }
assert indexRepairs*.source == ['HashToLinkedHash'] * 2 && indexRepairs[0].patch != indexRepairs[1].patch : indexRepairs
indexRepairs.each { r ->
    String p = new File(r.patch).getText('UTF-8')
    assert p.contains('+import java.util.LinkedHashMap;') && !p.contains('-import java.util.HashMap;') : p
}
File index = new File(basedir, 'src/main/java/com/example/Index.java')
String indexText = index.getText('UTF-8')
assert !indexText.contains('import java.util.HashMap;') && indexText.count('import java.util.LinkedHashMap;') == 1 : indexText
assert indexText.count('new LinkedHashMap<>()') == 2 : indexText
def all = repairFile.all
assert all != null && all.patches == 4 && all.applied == true : all
assert all.applies.reason == null && all.removed_imports == ['java.util.HashMap (Index.java)'] : all
String allPatch = new File(all.patch).getText('UTF-8')
assert allPatch.contains('-import java.util.HashMap;') && allPatch.count('+import java.util.LinkedHashMap;') == 1 : allPatch
assert reverse(all.patch).startsWith('0:') : "all.patch does not reverse from the applied files: " + reverse(all.patch)
assert log.contains('odrust repair: all 4 patches as one, to undo them: git apply -R ') : "the undo command is not printed"

// 3: the repaired module's tests pass under Maven
assert log =~ /Tests run: 4, Failures: 0, Errors: 0/ : "mvn test after the repair"
