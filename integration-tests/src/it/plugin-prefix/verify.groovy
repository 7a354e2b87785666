// `mvn odrust:help` in a project that does not name the plugin resolves the prefix through
// settings.xml's <pluginGroups> (docs/getting-started.md), from the group metadata `mvn install`
// of odrust wrote into the local repository (maven-install-plugin 3 on Maven 3.8 wrote none).
def metadata = new File(localRepositoryPath, 'io/github/odrust/maven-metadata-local.xml')
assert metadata.isFile() : "mvn install wrote no group metadata: " + metadata
assert metadata.getText('UTF-8').contains('<prefix>odrust</prefix>') : "the group metadata names no prefix:\n" + metadata.text

// With the Maven running the build, and with another one when ODRUST_IT_MAVEN_HOMES names some
// (a path-separated list of Maven homes, e.g. a Maven 3.9 unpacked from Maven Central).
def homes = [System.getProperty('maven.home')]
String more = System.getenv('ODRUST_IT_MAVEN_HOMES')
if (more) {
    homes.addAll(more.split(File.pathSeparator).findAll { it })
}
homes.eachWithIndex { home, i ->
    def mvn = new File(home, 'bin/mvn').absolutePath
    def command = [mvn, '-B', '-s', 'settings.xml', '-Dmaven.repo.local=' + localRepositoryPath, 'odrust:help']
    def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
    def out = process.inputStream.getText('UTF-8')
    assert process.waitFor() == 0 : "mvn odrust:help (" + home + ") failed:\n" + out
    new File(basedir, 'help-' + i + '.log').setText(out, 'UTF-8')
    // Maven 3.8 prints `odrust-maven-plugin:<version>:help`, Maven 3.9 `odrust:<version>:help`.
    assert out =~ /(odrust-maven-plugin|odrust):[^ ]+:help \(default-cli\)/ : "odrust:help did not run (" + home + "):\n" + out
    assert out.contains('odrust:detect') : "the help lists no goal (" + home + "):\n" + out
}
return true
