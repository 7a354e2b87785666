// Starts `odrust:detect` into target/run3 in a child Maven (the Maven running the invoker, the same
// local repository), waits until 3 experiments are recorded, then kills the child and every process
// it started (test JVMs included) without warning. Invocation 3 then resumes that run.
import java.util.concurrent.TimeUnit

String mvnHome = System.getProperty('maven.home')
assert mvnHome : "maven.home is not set"
def cmd = [new File(mvnHome, 'bin/mvn').path, '-B', '-Dmaven.repo.local=' + localRepositoryPath,
           'odrust:detect', '-Dodrust.seed=11', '-Dodrust.rounds=8', '-Dodrust.aloneRuns=3',
           '-Dodrust.outputDirectory=target/run3']
File childLog = new File(basedir, 'prebuild-child.log')
Process child = new ProcessBuilder(cmd).directory(basedir).redirectErrorStream(true).redirectOutput(childLog).start()

File jsonl = new File(basedir, 'target/run3/detect/experiments.jsonl')
def complete = { jsonl.isFile() ? jsonl.getText('UTF-8').readLines().findAll { it.trim() }.size() : 0 }
long deadline = System.currentTimeMillis() + 300_000
while (child.isAlive() && complete() < 3 && System.currentTimeMillis() < deadline) {
    Thread.sleep(50)
}
assert child.isAlive() : "the child run ended (exit " + child.exitValue() + ") before it could be killed, see " + childLog
assert complete() >= 3 : "the child run recorded fewer than 3 experiments in 300 s, see " + childLog

// the whole tree: first freeze the child Maven (SIGSTOP) so that it cannot start another test JVM,
// then take its descendants and kill them, then the child itself
assert new ProcessBuilder('kill', '-STOP', String.valueOf(child.pid())).start().waitFor() == 0 : "kill -STOP failed"
def tree = child.toHandle().descendants().toList()
tree.each { it.destroyForcibly() }
child.destroyForcibly()
child.waitFor(60, TimeUnit.SECONDS)
tree.each { h -> h.onExit().get(60, TimeUnit.SECONDS) }
assert !child.isAlive() : "the child Maven survived destroyForcibly"
assert tree.every { !it.isAlive() } : "a test JVM survived: " + tree.findAll { it.isAlive() }

String text = jsonl.getText('UTF-8')
new File(basedir, 'prebuild-snapshot.jsonl').setText(text, 'UTF-8')
int lines = text.readLines().findAll { it.trim() }.size()
new File(basedir, 'prebuild-kill.properties').setText('lines=' + lines + '\npartial=' + !(text.isEmpty() || text.endsWith('\n'))
        + '\nkilled_descendants=' + tree.size() + '\n', 'UTF-8')
return true
