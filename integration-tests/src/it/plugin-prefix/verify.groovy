// `mvn odrust:help` in a project that does not name the plugin resolves the prefix through
// settings.xml's <pluginGroups> (docs/getting-started.md), from the group metadata `mvn install`
// of odrust wrote into the local repository (maven-install-plugin 3 on Maven 3.8 wrote none).
def metadata = new File(localRepositoryPath, 'io/github/odrust/maven-metadata-local.xml')
assert metadata.isFile() : "mvn install wrote no group metadata: " + metadata
assert metadata.getText('UTF-8').contains('<prefix>odrust</prefix>') : "the group metadata names no prefix:\n" + metadata.text

def mvn = new File(System.getProperty('maven.home'), 'bin/mvn').absolutePath
def command = [mvn, '-B', '-s', 'settings.xml', '-Dmaven.repo.local=' + localRepositoryPath, 'odrust:help']
def process = new ProcessBuilder(command).directory(basedir).redirectErrorStream(true).start()
def out = process.inputStream.getText('UTF-8')
assert process.waitFor() == 0 : "mvn odrust:help failed:\n" + out
new File(basedir, 'help.log').setText(out, 'UTF-8')
assert out.contains('odrust-maven-plugin:') && out.contains(':help (default-cli)') : "odrust:help did not run:\n" + out
assert out.contains('odrust:detect') : "the help lists no goal:\n" + out
return true
