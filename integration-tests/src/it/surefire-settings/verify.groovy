import groovy.json.JsonSlurper

def S = 'com.example.settings.SettingsTest'
def methods = ['argLine', 'lateReplacedArgLine', 'systemPropertyVariables', 'environmentVariables',
               'workingDirectory', 'additionalClasspathElements', 'classpathDependencyExcludes',
               'enableAssertionsFalse', 'jvm', 'configurationParameters', 'basedir',
               'userPropertiesWinOverSystemPropertyVariables', 'systemProperties', 'systemPropertiesFile',
               'excludedEnvironmentVariables', 'classpathDependencyScopeExclude']

// 1: plain Surefire passed every test (the build succeeded), and ran only SettingsTest
File xml = new File(basedir, "target/surefire-reports/TEST-" + S + ".xml")
assert xml.isFile() : "Surefire did not run " + S
def report = new groovy.xml.XmlSlurper().parse(xml)
assert report.@tests.toString() == String.valueOf(methods.size()) : "surefire tests=" + report.@tests
assert report.@failures.toString() == '0' && report.@errors.toString() == '0' : "surefire failures"
assert !new File(basedir, "target/surefire-reports/TEST-com.example.settings.ExcludedTest.xml").exists() : "Surefire ran ExcludedTest"

// 2: odrust honoured every setting
File resultFile = new File(basedir, 'target/odrust/run-order/all/result.json')
assert resultFile.isFile() : "missing " + resultFile
def r = new JsonSlurper().parse(resultFile)
assert r.honoured == true : "not honoured: " + r.first_difference
assert r.results*.test == methods.collect { S + '#' + it } : "ran " + r.results*.test
def bad = r.results.findAll { it.outcome != 'pass' }
assert bad.isEmpty() : "settings not honoured by odrust:\n  " + bad.collect { it.test + ' ' + it.outcome + ': ' + it.message }.join('\n  ')

// 3: discovery honoured <excludes> and <excludedGroups> (SettingsTest#excludedGroups is tagged out)
def suite = new JsonSlurper().parse(new File(basedir, 'target/odrust/suite.json'))
assert suite.classes.collect { it['class'] } == [S] : "suite classes: " + suite.classes.collect { it['class'] }
assert suite.classes[0].tests as Set == methods.collect { S + '#' + it } as Set : "suite tests: " + suite.classes[0].tests
return true
