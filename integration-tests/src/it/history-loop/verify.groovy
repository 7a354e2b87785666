import groovy.json.JsonSlurper

def P = 'com.example.hist.'
File base = new File("$basedir")
String log = new File(base, 'build.log').getText('UTF-8')
def goals = log.split('Building history-loop 1.0-SNAPSHOT').drop(1)
assert goals.size() == 8

// ---- the records: one per run, never overwritten
def files = new File(base, 'hist').listFiles().findAll { it.name.endsWith('.json') }.sort { it.name }
assert files.size() == 3 : files*.name
def records = files.collect { new JsonSlurper().parse(it) }.sort { it.date + it.run_id }
assert records*.goal == ['detect', 'repair', 'detect'] : records*.goal
assert records.every { it.schema_version == 1 && it.module == 'com.example:history-loop' }
def p = ['git', '-C', base.path, 'rev-parse', 'HEAD'].execute()
String head = p.text.trim()
assert p.waitFor() == 0
assert records[0].commit == head && records[0].dirty == false : records[0]
assert records[0].tests*.test == [P + 'AVictimTest#startsEmpty'] : records[0].tests
assert records[0].tests[0].kind == 'victim'
assert records[0].ran.size() == 3 && records[0].complete == true
assert records[0].causes.size() == 1 && records[0].causes[0].origins == [[P + 'BPolluterTest#addsOne']]
// the repair applied its patch: the work tree is dirty when it is recorded
assert records[1].commit == head && records[1].dirty == true : records[1]
assert records[1].patches.size() == 1 && records[1].patches[0].applied == true : records[1].patches
assert records[1].patches[0].tests == [P + 'AVictimTest#startsEmpty']
assert records[1].ran == null
// the commit given, and the tree still dirty (the patch is applied, not committed)
assert records[2].commit == 'after-patch' && records[2].dirty == true && records[2].tests == [] : records[2]
assert records.every { it.date ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/ } : records*.date
assert goals[0].contains('odrust history: run recorded in ')
// the GitHub annotation: at the victim's own frame of its failure (AVictimTest.java line 10),
// the path relative to the work tree's top
assert goals[0].contains('::error file=src/test/java/com/example/hist/AVictimTest.java,line=10,title=odrust%3A order-dependent test (cause 1)::' + P + 'AVictimTest#startsEmpty is a victim: state left by ' + P + 'BPolluterTest#addsOne') : goals[0]

// ---- goals 2-4: the quarantine, before and after its expiry
def q = new JsonSlurper().parse(new File(base, '.odrust/quarantine.json'))
assert q.schema_version == 1 && q.entries.size() == 1 : q
assert q.entries[0].polluter == P + 'BPolluterTest#addsOne' && q.entries[0].owner == 'alice' && q.entries[0].expires == '2026-06-30'
assert goals[1].contains('quarantined victims of polluter ' + P + 'BPolluterTest#addsOne (owner alice, until 2026-06-30)')
assert goals[2].contains('quarantined ' + P + 'AVictimTest#startsEmpty (entry 1 of quarantine.json, owner alice, until 2026-06-30')
assert goals[2].contains('BUILD SUCCESS')
def qualityFiles = []
new File(base, 'target/odrust').eachFileRecurse(groovy.io.FileType.FILES) { if (it.name == 'odrust-code-quality.json') qualityFiles << it }
assert qualityFiles.size() == 1 : qualityFiles
def quality = new JsonSlurper().parse(qualityFiles[0])
assert quality.size() == 1 && quality[0].location.path == 'src/test/java/com/example/hist/AVictimTest.java' && quality[0].location.lines.begin == 10 : quality
assert quality[0].severity == 'major' && quality[0].check_name == 'odrust-order-dependent' 
assert goals[3].contains('quarantine.json expired (-Dodrust.failOnFlaky=true)')
assert goals[3].contains('entry 1 (victims of polluter ' + P + 'BPolluterTest#addsOne) expired on 2026-06-30; owner: alice; found again: ' + P + 'AVictimTest#startsEmpty')
// the test the expired entry covers is named there, not again as "neither listed nor quarantined"
assert !goals[3].contains('nor quarantined')
// after the patch, one clean run: ready to remove
assert goals[5].contains('quarantine entry 1 (victims of polluter ' + P + 'BPolluterTest#addsOne) of ') && goals[5].contains('is ready to remove: not found in the last 1 runs that ran it')

// ---- goal 7: the history
def view = new JsonSlurper().parse(new File(base, 'target/odrust/history/history.json'))
assert view.module == 'com.example:history-loop'
assert view.runs*.run_id == records*.run_id
def row = view.tests.find { it.test == P + 'AVictimTest#startsEmpty' }
assert row != null : view.tests
assert row.cells == ['found', 'patch', 'not-found'] : row.cells
assert row.first_seen == 0 && row.last_seen == 0 && row.found_in == 1
assert row.stopped.run == 2 && row.stopped.run_id == records[2].run_id && row.stopped.commit == 'after-patch' : row.stopped
assert row.stopped.after_patch.run_id == records[1].run_id && row.stopped.after_patch.applied == true : row.stopped
assert view.causes.size() == 1 && view.causes[0].first_seen == 0 && view.causes[0].last_seen == 0
def html = new File(base, 'target/odrust/history/history.html').getText('UTF-8')
assert html.contains('<tr data-test="' + P + 'AVictimTest#startsEmpty">')
assert html.contains('<td class="found">') && html.contains('<td class="patch">patch</td><td class="not-found">ok</td>')
assert goals[6].contains('odrust history: com.example:history-loop: 3 runs (2 that look for flaky tests), 1 flaky test, 1 cause')
assert goals[6].contains('not found since ' + records[2].run_id + ' (commit after-p')

// ---- goal 8: a record cut short, named
assert goals[7].contains('history record ') && goals[7].contains('20261201T000000Z-aaaaaa.json: not an odrust run record (')
true
