def log = new File(basedir, 'build.log').getText('UTF-8')
assert log.contains('BUILD FAILURE') : "odrust must fail on a module without tests"
assert log.contains('has no tests') : "build.log lacks 'has no tests':\n" + log.readLines().findAll { it.contains('[ERROR]') }.join('\n')
return true
