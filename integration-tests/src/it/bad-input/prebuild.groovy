// A report.json as odrust:detect writes it, with one victim, for invocation 10 (odrust:repair of a
// test that is not in it). The version must be this odrust's: the one the fixture's pom names.
def pom = new File(basedir, 'pom.xml').getText('UTF-8')
def m = pom =~ /(?s)<artifactId>odrust-maven-plugin<\/artifactId>\s*<version>([^<]+)<\/version>/
assert m.find() : "no odrust plugin version in pom.xml"
def version = m.group(1).replace('-SNAPSHOT', '')
def dir = new File(basedir, 'bad-report')
dir.mkdirs()
new File(dir, 'report.json').setText("""{"schema_version": 2, "module": "com.example:bad-input", "odrust_version": "${version}",
 "complete": true, "flaky": [{"test": "com.example.bad.GoodTest#one", "kind": "victim", "polluters": [["com.example.bad.GoodTest#two"]],
 "cleaners": {}, "state_setters": [], "failing_experiment": 2, "passing_experiment": 1}], "notes": []}""", 'UTF-8')

// Invocation 16: another run holds the lock of `locked-out` (this JVM keeps it until the build ends;
// the invocations are other processes).
def locked = new File(basedir, 'locked-out')
locked.mkdirs()
def channel = java.nio.channels.FileChannel.open(new File(locked, 'odrust.lock').toPath(),
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)
def lock = channel.tryLock()
assert lock != null : "could not lock locked-out/odrust.lock"
channel.write(java.nio.ByteBuffer.wrap('odrust:detect, PID 4242, started 2026-11-27T10:00:00Z'.getBytes('UTF-8')), 0)
System.getProperties().put('odrust.it.badInputLock', lock) // kept reachable, so never released early
return true
