import groovy.json.JsonSlurper

File base = new File("$basedir")
String log = new File(base, 'build.log').getText('UTF-8')
assert log.count('BUILD SUCCESS') == 4 : "expected 4 successful builds, found " + log.count('BUILD SUCCESS')
def goals = log.split('BUILD SUCCESS')
def count = { String g -> def m = (g =~ /odrust incremental: (\d+) of (\d+) test classes selected/); assert m.find() : g; [m.group(1) as int, m.group(2) as int] }

// 2: the first run is a full run, and finds the victim
assert goals[1].contains('odrust incremental: a full run') : goals[1]
assert count(goals[1]) == [2, 2]

// 3: the jar was built again
assert goals[2].contains('Building jar:') && goals[2].contains('testkit-1.0-SNAPSHOT.jar') : goals[2]

// 4: the rebuilt jar is no change: nothing selected
assert count(goals[3]) == [0, 2] : goals[3]
assert !goals[3].contains('a jar of the test classpath changed') : goals[3]
def selection = new JsonSlurper().parse(new File(base, 'app/target/odrust/incremental/selection.json'))
assert selection.full == false
assert selection.changed == [] : "changed: " + selection.changed
assert selection.selected == []
return true
