import groovy.json.JsonSlurper

String log = new File(basedir, 'build.log').getText('UTF-8')
def slurp = { String p -> new JsonSlurper().parse(new File(basedir, p)) }

// 1: the two tests that take fields by position, each pinned to its getDeclaredFields() call;
// the engine offers FieldByName first for it, then SortFields
def report = slurp('target/odrust/id/report.json')
def byTest = report.outcome.tests.collectEntries { [(it.test): it] }
assert byTest.keySet() == ['com.example.ColumnsTest#columnsByPosition', 'com.example.ColumnsTest#ownerIsText'] as Set : byTest.keySet()
byTest.values().each { v ->
    assert v.status == 'id' && v.pin.call.api == 'Class.getDeclaredFields' : v
    assert v.repairs*.strategy.take(2) == ['FieldByName', 'SortFields'] : v.repairs
}

// 2: FieldByName patches, verified, offered and not applied
def repairs = slurp('target/odrust/repair/id-repair.json').repairs.collectEntries { [(it.test): it] }
repairs.values().each { r ->
    assert r.status == 'patched' && r.source == 'FieldByName' && !r.applied && r.verified_seeds.size() > 3 : r
    assert r.file == 'src/test/java/com/example/ColumnsTest.java' && r.files == null : r
}
String byPosition = new File(repairs['com.example.ColumnsTest#columnsByPosition'].patch).text
assert byPosition.contains('-        assertEquals("id BIGINT", Columns.column(fields[0]));') : byPosition
assert byPosition.contains('+        assertEquals("id BIGINT", Columns.column(Account.class.getDeclaredField("id")));') : byPosition
assert byPosition.contains('+        assertEquals("balance INTEGER", Columns.column(Account.class.getDeclaredField("balance")));') : byPosition
assert !byPosition.contains('-        Field[] fields') : "the array stays for its length check: " + byPosition
String owner = new File(repairs['com.example.ColumnsTest#ownerIsText'].patch).text
assert owner.contains('+    public void ownerIsText() throws NoSuchFieldException {') : owner
assert owner.contains('+        assertEquals("owner VARCHAR", Columns.column(Account.class.getDeclaredField("owner")));') : owner
assert log =~ /patched  com.example.ColumnsTest#columnsByPosition: FieldByName: the fields of Account.class.getDeclaredFields\(\) at line 18 taken by index are looked up by name, in Account's declaration order: fields\[0\] → getDeclaredField\("id"\), fields\[2\] → getDeclaredField\("balance"\)/
assert log.contains('odrust repair: 2 verified patches for 2 implementation-dependent tests')
// not applied: the sources are as they were
assert new File(basedir, 'src/test/java/com/example/ColumnsTest.java').text.contains('Columns.column(fields[0])')

// the patches together apply as written from the fixture's folder (the ceiling keeps git from
// finding the odrust repository around target/it)
def gitEnv = System.getenv().collect { k, v -> k + '=' + v } + ['GIT_CEILING_DIRECTORIES=' + basedir.absoluteFile.parentFile.path]
def applies = ['git', 'apply', '--check', '-v', 'target/odrust/repair/id/all.patch'].execute(gitEnv, basedir)
def so = new StringBuilder()
def se = new StringBuilder()
applies.waitForProcessOutput(so, se)
assert applies.exitValue() == 0 && (so.toString() + se).contains('Checking patch src/test/java/com/example/ColumnsTest.java') : "the patch does not apply: " + so + se
