import groovy.json.JsonSlurper

File base = new File("$basedir")
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 8 : "expected 8 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('BUILD SUCCESS')
def count = { String g -> def m = (g =~ /odrust incremental: (\d+) of (\d+) test classes selected/); assert m.find() : g; [m.group(1) as int, m.group(2) as int] }

// 2: the first run is a full run, and finds the victim
assert goals[1].contains('odrust incremental: a full run') : goals[1]
assert count(goals[1]) == [4, 4]

// 3: the jar was built again
assert goals[2].contains('Building jar:') && goals[2].contains('testkit-1.0-SNAPSHOT.jar') : goals[2]

// 4: the rebuilt jar is no change: nothing changed, and the run ends before discovery's test JVM
assert goals[3].contains('odrust incremental: nothing changed since the saved state') : goals[3]
assert !goals[3].contains('test classes selected') : goals[3]
assert !goals[3].contains('odrust detect:') : "4: detection started: " + goals[3]
assert !goals[3].contains('a jar of the test classpath changed') : goals[3]
def selection = new JsonSlurper().parse(new File(base, 'app/target/odrust/incremental/selection.json'))
assert selection.full == false
assert selection.unchanged == true
assert selection.changed == [] : "changed: " + selection.changed
assert selection.selected == []
// the discovery of goal 2 is the last: goal 4 started no test JVM
def discovery = new File(base, 'app/target/odrust/discovery')
assert discovery.isDirectory()
assert discovery.listFiles().every { it.lastModified() < new File(base, 'app/target/odrust/incremental/selection.json').lastModified() } : "4: discovery ran"
// 6: one class of the sibling's jar changed: only the test that reaches it
assert goals[5].contains('changed  com.example.kit.Clock (bytes changed)') : goals[5]
assert count(goals[5]) == [1, 4] : goals[5]
assert goals[5].contains('selected com.example.app.Beta1ClockTest: reaches changed class com.example.kit.Clock') : goals[5]
assert !goals[5].contains('a jar of the test classpath changed') : goals[5]
def sel6 = new JsonSlurper().parse(new File(base, 'app/target/odrust-6/incremental/selection.json'))
assert sel6.changed == [[class: 'com.example.kit.Clock', why: 'bytes changed']] : "changed: " + sel6.changed
assert sel6.selected*.class == ['com.example.app.Beta1ClockTest']
// 7: the baseline records the fields of testkit's classes, though testkit is a jar here: the
// polluter touches Registry.ENTRIES only inside testkit's code (Registry.register)
def baseline = new File(base, 'app/target/odrust-7/detect/experiments.jsonl').readLines('UTF-8')
        .findAll { it.trim() }.collect { new JsonSlurper().parseText(it) }.find { it.kind == 'baseline' }
assert baseline != null
def polluter = baseline.results.find { it.test == 'com.example.app.Alpha2PolluterTest#registers' }
assert polluter.writes.contains('com.example.kit.Registry#ENTRIES') : "7: the polluter's writes " + polluter.writes
def report7 = new JsonSlurper().parse(new File(base, 'app/target/odrust-7/report.json'))
assert report7.flaky.find { it.test == 'com.example.app.Alpha1CtorVictimTest#startsWithAnEmptyRegistry' }?.kind == 'victim' : report7.flaky
// 8: the set Names.joined iterates is made and iterated in testkit's code, a jar of the project:
// its call counts (odrust.id.filter=project), and the test is pinned to it
def id8 = new JsonSlurper().parse(new File(base, 'app/target/odrust-8/id/report.json'))
def names = id8.outcome.tests.find { it.test == 'com.example.app.Gamma1NamesTest#joinsInOrder' }
assert names?.status == 'id' : "8: reported " + id8.outcome.tests*.test
assert names.pin.call.at.class == 'com.example.kit.Names' : "8: the pin " + names.pin
assert id8.outcome.tests*.test == ['com.example.app.Gamma1NamesTest#joinsInOrder'] : id8.outcome.tests*.test
return true
