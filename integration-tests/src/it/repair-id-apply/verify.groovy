import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def slurp = { String p -> new JsonSlurper().parse(new File(basedir, p)) }

// 1: two ID tests, each pinned to its own line of ShelfTest
def report = slurp('target/odrust/id/report.json')
def tests = report.outcome.tests.collectEntries { [(it.test): it] }
assert tests.keySet() == ['com.example.ShelfTest#booksInOrder', 'com.example.ShelfTest#authorsInOrder'] as Set : tests.keySet()
assert tests.values().every { it.status == 'id' && it.repairs[0].strategy == 'ChangeContainsExactly' } : tests.values()*.repairs

// 2: two patches, each passing alone, then the original order once with both
def repairs = slurp('target/odrust/repair/id-repair.json').repairs
assert repairs*.status == ['patched', 'patched'] : repairs
assert repairs.every { it.original_order_with == 2 } : "not run in the original order together: " + repairs
assert log.contains('odrust repair: the original order with 2 patches applied together')
assert log =~ /the original order with 2 patches together \([^)]*\): every test that passes without them passes/
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
repairs.each { r -> assert reverse(r.patch).startsWith('0:') : "a patch does not reverse from the applied file: " + reverse(r.patch) }

// 3: the repaired module's tests pass under Maven
assert log =~ /Tests run: 2, Failures: 0, Errors: 0/ : "mvn test after the repair"
